#!/usr/bin/env python3
"""Regenerates docs/compat.md's mshadow name tables (issue 17).

Usage: tools/mshadow-names.py MSHADOW_CHECKOUT   (a checkout of dmlc/mshadow, e.g. bc49327)

Lists every public name of mshadow's headers: clang's JSON AST of tensor.h, extension.h,
random.h and io.h (namespace-scope declarations and public members of public classes, one row
per qualified name), every #define of its headers but the include guards, and by hand the
CUDA-only names a CPU build cannot show. Then compiles, after #include "shade/compat/mshadow.h",
a using-declaration per name (members: in a class derived from an instantiation; macros: #ifndef)
to mark each present or not, and rewrites the tables (from "### base.h" to the end of the file)
and the "Totals:" line. Needs clang++.
"""
import collections
import glob
import json
import os
import re
import subprocess
import sys

MSHADOW_FLAGS = ['-DMSHADOW_STAND_ALONE=1', '-DMSHADOW_USE_CBLAS=0', '-DMSHADOW_USE_MKL=0',
                 '-DMSHADOW_USE_CUDA=0', '-DMSHADOW_USE_SSE=0', '-DMSHADOW_USE_F16C=0']


def extract_names(ast_json):
    data = ast_json
    dec = json.JSONDecoder()
    objs = []
    i = 0
    n = len(data)
    while i < n:
        while i < n and data[i] in ' \n\r\t': i += 1
        if i >= n: break
        if not data.startswith('{', i):
            j = data.find('\n', i); i = j + 1 if j >= 0 else n; continue
        o, i = dec.raw_decode(data, i)
        objs.append(o)
    cur = [None]
    out = {}
    def setfile(d):
        if isinstance(d, dict):
            for k in ('spellingLoc', 'expansionLoc'):
                if k in d: setfile(d[k])
            if 'file' in d: cur[0] = d['file']
    KINDS = {'CXXRecordDecl':'type','ClassTemplateDecl':'type','FunctionDecl':'function','FunctionTemplateDecl':'function',
             'TypedefDecl':'typedef','TypeAliasDecl':'typedef','EnumDecl':'type','EnumConstantDecl':'constant','VarDecl':'constant',
             'CXXMethodDecl':'function','FieldDecl':'member','CXXConstructorDecl':None,'CXXDestructorDecl':None,
             'ClassTemplatePartialSpecializationDecl':None,'ClassTemplateSpecializationDecl':None, 'CXXConversionDecl':None}
    def walk(node, path, in_class, access_default):
        if not isinstance(node, dict): return
        if 'loc' in node: setfile(node['loc'])
        if 'range' in node:
            setfile(node['range'].get('begin', {})); setfile(node['range'].get('end', {}))
        kind = node.get('kind'); name = node.get('name')
        f = cur[0]
        if kind == 'NamespaceDecl':
            for c in node.get('inner', []): walk(c, path + [name], False, None)
            return
        if kind in ('ClassTemplateSpecializationDecl', 'ClassTemplatePartialSpecializationDecl', 'CXXRecordDecl', 'ClassTemplateDecl'):
            if kind in ('CXXRecordDecl','ClassTemplateDecl') and name and not node.get('isImplicit') and f and '/mshadow/' in f:
                rec(path, name, KINDS[kind], f, in_class, node)
            inner = node.get('inner', [])
            if kind == 'ClassTemplateDecl':
                for c in inner: walk(c, path, in_class, None) if c.get('kind') != 'CXXRecordDecl' else walk_class(c, path + [name])
                return
            if name: walk_class(node, path + [name]); return
            return
        if kind in KINDS and KINDS[kind] and name and not node.get('isImplicit') and f and '/mshadow/' in f:
            if node.get('access', 'public') == 'public':
                rec(path, name, KINDS[kind], f, in_class, node)
        if kind == 'EnumDecl':
            for c in node.get('inner', []): walk(c, path if not node.get('scopedEnumTag') else path + [name], in_class, None)
            return
        if kind == 'FunctionTemplateDecl' or kind == 'LinkageSpecDecl':
            for c in node.get('inner', []):
                if c.get('kind') not in ('FunctionDecl', 'CXXMethodDecl'): walk(c, path, in_class, None)
                else:
                    if 'loc' in c: setfile(c['loc'])
            return
    def walk_class(node, path):
        access = 'private' if node.get('tagUsed') == 'class' else 'public'
        if 'loc' in node: setfile(node['loc'])
        for c in node.get('inner', []):
            if c.get('kind') == 'AccessSpecDecl':
                access = c.get('access'); 
                if 'loc' in c: setfile(c['loc'])
                continue
            if access != 'public':
                # still track files
                walkfiles(c); continue
            walk(c, path, True, None)
    def walkfiles(node):
        if isinstance(node, dict):
            for k, v in node.items():
                if k in ('loc',): setfile(v)
                elif k == 'range': setfile(v.get('begin', {})); setfile(v.get('end', {}))
                elif k == 'inner':
                    for c in v: walkfiles(c)
    def rec(path, name, kind, f, in_class, node):
        q = '::'.join(path + [name])
        f = f[f.index('/mshadow/') + 9:]
        key = q
        if key not in out: out[key] = (kind, f, in_class)
    for o in objs:
        walk(o, [], False, None)
    return [(f, q, k, str(int(m))) for q, (k, f, m) in sorted(out.items(), key=lambda x: (x[1][1], x[0]))]



def check_names(rows, macros, repo):
    CONCRETE = {
     'mshadow::DataType': 'mshadow::DataType<float>',
     'mshadow::LayoutType': 'mshadow::LayoutType<mshadow::kNCHW>',
     'mshadow::Random': 'mshadow::Random<mshadow::cpu, float>',
     'mshadow::Shape': 'mshadow::Shape<2>',
     'mshadow::Stream': 'mshadow::Stream<mshadow::cpu>',
     'mshadow::Tensor': 'mshadow::Tensor<mshadow::cpu, 2, float>',
     'mshadow::TensorContainer': 'mshadow::TensorContainer<mshadow::cpu, 2, float>',
     'mshadow::expr::BLASEngine': 'mshadow::expr::BLASEngine<mshadow::cpu, float>',
     'mshadow::expr::Exp': 'mshadow::expr::Exp<mshadow::Tensor<mshadow::cpu, 2, float>, float, mshadow::expr::type::kRValue>',
     'mshadow::expr::RValueExp': 'mshadow::expr::RValueExp<mshadow::Tensor<mshadow::cpu, 2, float>, float>',
     'mshadow::expr::ExpInfo': 'mshadow::expr::ExpInfo<mshadow::Tensor<mshadow::cpu, 2, float>>',
     'mshadow::expr::TypeCheck': 'mshadow::expr::TypeCheck<mshadow::cpu, 2, float, mshadow::Tensor<mshadow::cpu, 2, float>>',
     'mshadow::expr::Plan': 'mshadow::expr::Plan<mshadow::Tensor<mshadow::cpu, 2, float>, float>',
     'mshadow::expr::ShapeCheck': 'mshadow::expr::ShapeCheck<2, mshadow::Tensor<mshadow::cpu, 2, float>>',
     'mshadow::expr::TypeCheckPass': 'mshadow::expr::TypeCheckPass<true>',
     'mshadow::expr::StreamInfo': 'mshadow::expr::StreamInfo<mshadow::cpu, mshadow::Tensor<mshadow::cpu, 2, float>>',
     'mshadow::expr::ScalarExp': 'mshadow::expr::ScalarExp<float>',
     'mshadow::packet::Packet': 'mshadow::packet::Packet<float, mshadow::packet::kSSE2>',
     'mshadow::packet::AlignBytes': 'mshadow::packet::AlignBytes<mshadow::packet::kSSE2>',
     'mshadow::packet::PacketOp': 'mshadow::packet::PacketOp<mshadow::op::plus, float, mshadow::packet::kSSE2>',
     'mshadow::packet::Saver': 'mshadow::packet::Saver<mshadow::sv::plusto, float, mshadow::packet::kSSE2>',
     'mshadow::expr::PacketPlan': 'mshadow::expr::PacketPlan<mshadow::Tensor<mshadow::cpu, 2, float>, float, mshadow::packet::kSSE2>',
     'mshadow::expr::PacketCheck': 'mshadow::expr::PacketCheck<float, mshadow::packet::kSSE2>',
     'mshadow::expr::PacketAlignCheck': 'mshadow::expr::PacketAlignCheck<2, mshadow::Tensor<mshadow::cpu, 2, float>, mshadow::packet::kSSE2>',
    }
    for plain in ['mshadow::cpu','mshadow::gpu','mshadow::half::half_t','mshadow::half::half2_t','mshadow::utils::IStream']:
        CONCRETE[plain] = plain
    for ns, names in [('op::complex', 'mul div conjugate exchange pad_imag toreal abs_square sum_real_imag'), ('op', 'div identity minus mul plus right'), ('red', 'maximum minimum sum'), ('sv', 'divto minusto multo plusto saveto')]:
        for n in names.split(): CONCRETE['mshadow::%s::%s' % (ns, n)] = 'mshadow::%s::%s' % (ns, n)
    entries = []  # (file, qname, kind, check-code or None)
    for f, q, k, m in rows:
        f = f.replace('./', '').replace('extension/../', '')
        if m == '0':
            if q.startswith('mshadow::expr::type::'):
                code = 'static_assert(sizeof(%s) > 0, "");' % q
            else:
                code = 'namespace c{i} { using %s; }' % q
            entries.append((f, q, k, code))
        else:
            cls, mem = q.rsplit('::', 1)
            if cls in CONCRETE:
                t = CONCRETE[cls]
                if mem.startswith('operator'):
                    code = 'struct c{i} : %s { using %s::%s; };' % (t, t, mem)
                else:
                    code = 'struct c{i} : %s { using %s::%s; };' % (t, t, mem)
                entries.append((f, q, k, code))
            else:
                entries.append((f, q, k, None))
    for f, name in macros:
        if name.endswith('_H_'): continue
        entries.append((f, name, 'macro', '#ifndef %s\n#error c{i} missing\n#endif' % name))
    src = ['#include "shade/compat/mshadow.h"']
    for i, (f, q, k, code) in enumerate(entries):
        if code is None: continue
        src.append('// %d' % i)
        src.append(code.replace('{i}', str(i)))
    text = '\n'.join(src) + '\n'
    flines = text.split('\n')
    r = subprocess.run(['clang++', '-std=c++17', '-fsyntax-only', '-ferror-limit=0', '-I' + os.path.join(repo, 'include'),
                        '-w', '-x', 'c++', '-'], input=text, capture_output=True, text=True)
    bad = set()
    for m in re.finditer(r'<stdin>:(\d+):\d+: error', r.stderr):
        j = int(m.group(1)) - 1
        while j >= 0 and not re.match(r'^// (\d+)$', flines[j]): j -= 1
        if j >= 0: bad.add(int(flines[j][3:]))

    return [(f, q, k, 'unchecked' if code is None else ('missing' if i in bad else 'present')) for i, (f, q, k, code) in enumerate(entries)]


def tables(rows, repo):
    rows = [list(r) for r in rows]
    # The stream_gpu-inl.h and CUDA-only names the CPU AST cannot show (read from the source).
    GPU = [('stream_gpu-inl.h', n, k) for n, k in [
        ('mshadow::Stream<gpu>', 'type'), ('mshadow::Stream<gpu>::Wait', 'function'), ('mshadow::Stream<gpu>::CheckIdle', 'function'),
        ('mshadow::Stream<gpu>::GetStream', 'function'), ('mshadow::Stream<gpu>::GetBlasHandle', 'function'),
        ('mshadow::Stream<gpu>::CreateBlasHandle', 'function'), ('mshadow::Stream<gpu>::DestroyBlasHandle', 'function'),
        ('mshadow::Stream<gpu>::GetSolverHandle', 'function'), ('mshadow::Stream<gpu>::CreateSolverHandle', 'function'),
        ('mshadow::Stream<gpu>::DestroySolverHandle', 'function'), ('mshadow::Stream<gpu>::GetDnnHandle', 'function'),
        ('mshadow::Stream<gpu>::CreateDnnHandle', 'function'), ('mshadow::Stream<gpu>::DestroyDnnHandle', 'function'),
        ('mshadow::NewStream<gpu>', 'function'), ('mshadow::DeleteStream<gpu>', 'function'), ('StreamDeleter', 'type')]] + [
        ('random.h', 'mshadow::Random<gpu, DType>', 'type'), ('random.h', 'mshadow::Random<gpu>::CreateGenerator', 'function'),
        ('random.h', 'mshadow::Random<gpu>::DeleteGenerator', 'function')]
    for f, n, k in GPU: rows.append([f, n, k, 'gpu'])
    tests = sorted(glob.glob(repo + '/tests/compat/test_compat_mshadow*.cc')) + [repo + '/tests/compat/mshadow_probe.h', repo + '/tests/seeds/seed_004_mshadow.cc', repo + '/tests/io/test_binary_io.cc'] + sorted(glob.glob(repo + '/tests/ext/test_ext_*.cc')) + sorted(glob.glob(repo + '/tests/*/test_*.cc'))
    seen = set(); tests = [t for t in tests if not (t in seen or seen.add(t))]
    texts = {t: open(t).read() for t in tests}
    FILE_FUNCS = collections.defaultdict(list)
    for f, q, k, st in rows:
        if k == 'function' and q.count('::') <= 2: FILE_FUNCS[f].append(q.split('::')[-1])
    OPERATOR_TESTS = {'mshadow::expr': 'test_compat_mshadow.cc, test_expr.cc', 'mshadow::half': 'compat/mshadow_probe.h, test_compat_mshadow_engine.cc',
                      'mshadow::Shape': 'test_shape.cc, test_compat_mshadow_probe.cc', 'mshadow::Tensor': 'test_compat_mshadow.cc, test_tensor.cc',
                      'mshadow::TensorContainer': 'test_compat_mshadow.cc, test_tensor.cc', 'mshadow': 'test_compat_mshadow_probe.cc, test_shape.cc'}
    def covering(q, f=''):
        tok = q.split('::')[-1]
        if tok.startswith('operator'):
            scope = q.rsplit('::', 1)[0]
            for key in sorted(OPERATOR_TESTS, key=len, reverse=True):
                if scope.startswith(key): return OPERATOR_TESTS[key]
            return ''
        if tok.endswith('Exp') and 'extension' in f:
            for fn in FILE_FUNCS.get(f, []):
                c = covering('x::' + fn)
                if c: return c + ' (via `%s`)' % fn
        if len(tok) < 2: return ''
        pat = re.compile(r'(?<![A-Za-z0-9_])' + re.escape(tok) + r'(?![A-Za-z0-9_])')
        hits = [os.path.relpath(t, repo + '/tests') for t in tests if pat.search(texts[t])]
        return ', '.join(hits[:2])
    NOTES = {
     'mshadow::index_t': 'present; differs: int64_t (mshadow: int32_t); SaveBinary still writes int32 extents',
     'mshadow::openmp_index_t': 'present (index_t)',
     'mshadow::mshadow_sizeof': 'present; a flag outside mshadow\'s seven throws',
     'mshadow::SaveBinary': 'present; mshadow\'s bytes: int32 extents, unpadded rows; an extent over INT32_MAX throws',
     'mshadow::LoadBinary': 'present; reads mshadow\'s bytes; a truncated stream or bad shape throws (mshadow checks only that some bytes came)',
     'mshadow::red::maximum::SetInitValue': 'present; -FLT_MAX / -DBL_MAX / -65504 / the integer minimum, as mshadow (NDArray\'s NumPy reductions start from -inf)',
     'mshadow::red::minimum::SetInitValue': 'present; FLT_MAX / DBL_MAX / 65504 / the integer maximum, as mshadow',
     'mshadow::Random': 'present; mshadow\'s numbers: one std::mt19937 and the same `<random>` distributions (same compiler and flags); parameters outside a distribution\'s domain throw',
     'mshadow::half::half_t': 'present (mshadow\'s own class, bit-compatible with shade::half_t); mshadow\'s operators: half_t op number gives half_t',
     'mshadow::packet::Packet::Store': 'present; the kPlain packet stores its element (mshadow\'s kPlain Store writes nothing)',
     'MSHADOW_DEFAULT_PACKET': 'present: kPlain (MSHADOW_USE_SSE is 0; kSSE2 packets exist on SSE2 machines)',
     'mshadow::expr::BroadcastWithMultiAxesExp': 'present: alias of shade\'s BroadcastWithAxisExp<SrcExp, DType, dimsrc, dimsrc> (broadcast_multi_axes and broadcast_to return it)',
     'mshadow::expr::MirroringExp': 'present: alias of shade\'s FlipExp (mirror returns it; MirroringExp(src) builds one)',
     'mshadow::expr::SwapAxisExp': 'present: alias of shade\'s TransposeExExp (swapaxis returns it; m_a1 and a2 do not tell types apart)',
     'mshadow::half::half_t::half_': 'present',
     'MSHADOW_TYPE_SWITCH': 'present; a real switch over mshadow\'s seven flags; an unknown flag throws',
     'MSHADOW_USE_CUDA': 'present: 0', 'MSHADOW_USE_SSE': 'present: 0 (shade\'s own packet layer)', 'MSHADOW_USE_CBLAS': 'present: 1',
     'MSHADOW_USE_MKL': 'present: 0', 'MSHADOW_STAND_ALONE': 'present: 1', 'MSHADOW_USE_F16C': 'present: 0', 'MSHADOW_USE_GLOG': 'present: 0',
     'mshadow::expr::BLASEngine::GetT': 'present; returns the bool (mshadow\'s stand-alone form; its CBLAS build returns CBLAS_TRANSPOSE)',
     'mshadow::expr::pool': 'present; output size (H - k) / s + 1 as mshadow',
     'mshadow::expr::complex_pad_imag': 'present; the real source needs an even last extent, as mshadow checks',
     'mshadow::expr::MapPacketPlan': 'present (mshadow\'s signature, beside shade\'s own packet loop)',
    }
    def reason(f, q, k, st):
        last = q.split('::')[-1]
        if st == 'gpu': return 'GPU-only: CUDA streams, handles and curand; shade has no CUDA device'
        if 'packet' in f: return 'not provided: mshadow\'s SSE packet layer; shade vectorises with its own (shade/packet/packet.h) and MSHADOW_USE_SSE is 0'
        if k == 'macro':
            return {'MSHADOW_CUDA_CALL': 'GPU-only: wraps a CUDA runtime call',
                    'noexcept': 'MSVC < 2015 only', 'rand_r': 'Windows only',
                    'MSHADOW_SCALAR_': 'not a name after the include: tensor.h undefines it'}.get(
                        q, 'internal: helper macro that writes the members of mshadow\'s own half_t/half2_t class')
        if q == 'mshadow::expr::RValueExp::__assign': return 'not provided: reserved identifier (leading __); operator= / += ... have its behaviour'
        if q in ('mshadow::expr::BroadcastWithMultiAxesExp', 'mshadow::expr::MirroringExp', 'mshadow::expr::SwapAxisExp'):
            return 'not provided: node type name; the function (%s) exists and returns shade\'s node' % {
                'BroadcastWithMultiAxesExp': 'broadcast_multi_axes', 'MirroringExp': 'mirror, a FlipExp', 'SwapAxisExp': 'swapaxis, a TransposeExExp'}[last]
        if q.startswith('mshadow::half::operator'):
            return 'not as a function template: half_t compares through its own operators and float conversion, with mshadow\'s results'
        if q in ('mshadow::MapExpCPUEngine', 'mshadow::MapPlan', 'mshadow::expr::GetShape') or '::kDim' in q or q.startswith('mshadow::expr::Plan::'):
            return 'internal: a helper or a constant of one of mshadow\'s engine specializations; shade\'s engine has its own'
        if st == 'unchecked':
            return 'internal: member of mshadow\'s expression node; shade\'s node for the same function keeps its own fields'
        return 'missing'
    groups = collections.OrderedDict()
    def group(f):
        f = f.replace('extension/.', '')
        if f.startswith('extension') or f == 'extension.h': return 'extension.h, extension/*.h'
        if 'packet' in f: return 'packet-inl.h, packet/*.h'
        return {'half2.h': 'half.h, half2.h', 'half.h': 'half.h, half2.h', 'tensor_container.h': 'tensor.h, tensor_container.h',
                'tensor.h': 'tensor.h, tensor_container.h', 'expr_scalar-inl.h': 'expr_engine-inl.h, dot_engine-inl.h',
                'dot_engine-inl.h': 'expr_engine-inl.h, dot_engine-inl.h', 'expr_engine-inl.h': 'expr_engine-inl.h, dot_engine-inl.h'}.get(f, f)
    for f, q, k, st in rows:
        groups.setdefault(group(f), []).append((f, q, k, st))
    order = ['base.h', 'logging.h', 'half.h, half2.h', 'tensor.h, tensor_container.h', 'tensor_cpu-inl.h', 'expression.h',
             'expr_engine-inl.h, dot_engine-inl.h', 'extension.h, extension/*.h', 'io.h', 'random.h', 'stream_gpu-inl.h', 'packet-inl.h, packet/*.h']
    out = []
    tot = collections.Counter()
    for g in order + [g for g in groups if g not in order]:
        if g not in groups: continue
        items = groups[g]
        cnt = collections.Counter('present' if st == 'present' else 'other' for _, _, _, st in items)
        tot.update(cnt)
        out.append('### %s\n\n%d names, %d present.\n\n| name | kind | status | tests naming it |\n|---|---|---|---|' % (g, len(items), cnt['present']))
        for f, q, k, st in sorted(items, key=lambda x: x[1].lower()):
            name = q[len('mshadow::'):] if q.startswith('mshadow::') else q
            status = NOTES.get(q, 'present') if st == 'present' else reason(f, q, k, st)
            t = covering(q, f) if st == 'present' else ''
            out.append('| `%s` | %s | %s | %s |' % (name.replace('|', '\\|'), k, status, t))
        out.append('')

    return '\n'.join(out), tot


def main():
    mshadow = os.path.abspath(sys.argv[1])
    repo = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    src = ''.join('#include "mshadow/%s"\n' % h for h in ('tensor.h', 'extension.h', 'random.h', 'io.h'))
    ast = subprocess.run(['clang++', '-std=c++17', '-fsyntax-only', '-I' + mshadow] + MSHADOW_FLAGS +
                         ['-Xclang', '-ast-dump=json', '-Xclang', '-ast-dump-filter=mshadow', '-x', 'c++', '-'],
                         input=src, capture_output=True, text=True).stdout
    rows = extract_names(ast)
    macros = []
    for path in sorted(glob.glob(os.path.join(mshadow, 'mshadow', '**', '*.h'), recursive=True)):
        rel = os.path.relpath(path, os.path.join(mshadow, 'mshadow'))
        for name in sorted(set(re.findall(r'^\s*#\s*define\s+([A-Za-z_0-9]+)', open(path).read(), re.M))):
            macros.append((rel, name))
    status = check_names(rows, macros, repo)
    text, tot = tables(status, repo)
    doc_path = os.path.join(repo, 'docs', 'compat.md')
    doc = open(doc_path).read()
    start = doc.index('### base.h\n')
    pres = len(re.findall(r'^\| `[^`]*` \| [a-z]+ \| present', text, re.M))
    total = len(re.findall(r'^\| `', text, re.M))
    gpu = text.count('| GPU-only')
    internal = text.count('| internal')
    doc = re.sub(r'^Totals: \d+ names: \d+ present, \d+ GPU-only, \d+ internal to mshadow\'s engine, \d+ not provided',
                 'Totals: %d names: %d present, %d GPU-only, %d internal to mshadow\'s engine, %d not provided' %
                 (total, pres, gpu, internal, total - pres - gpu - internal), doc[:start], flags=re.M)
    open(doc_path, 'w').write(doc + text.rstrip('\n') + '\n')
    print('%d names, %d present' % (total, pres))


if __name__ == '__main__':
    main()
