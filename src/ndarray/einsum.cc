// np.einsum (ndarray/einsum.h): subscripts parsed into integer labels, then diagonal views,
// early sums and pairwise batched matmuls.
#include "shade/ndarray/einsum.h"

#include <algorithm>
#include <cctype>
#include <set>
#include <string>
#include <vector>

#include "shade/ndarray/device.h"
#include "shade/ndarray/linalg.h"
#include "shade/ndarray/promotion.h"
#include "shade/ndarray/reduce.h"
#include "shade/ndarray/shape_ops.h"

namespace shade {
namespace {

// Labels: 'A'..'Z' are 0..25 and 'a'..'z' 26..51 (so label order is NumPy's sorted character
// order for the implicit output); the axes an ellipsis stands for are kEllipsis + j, numbered
// right-aligned over the widest ellipsis of all operands (they broadcast like NumPy's).
constexpr int kLetters = 52;
constexpr int kEllipsis = kLetters;

int LabelOf(char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  return 26 + (c - 'a');
}

char CharOf(int label) {
  return label < 26 ? static_cast<char>('A' + label) : static_cast<char>('a' + label - 26);
}

std::string LabelText(int label) {
  return label < kLetters ? std::string(1, CharOf(label)) : std::string("...");
}

// One term's letters, with -1 standing for its ellipsis (at most one).
std::vector<int> ParseTerm(const std::string& term, bool output) {
  std::vector<int> out;
  bool ellipsis = false;
  for (std::size_t i = 0; i < term.size(); ++i) {
    const char c = term[i];
    if (c == ' ') continue;
    if (c == '.') {
      SHADE_CHECK(term.compare(i, 3, "...") == 0)
          << "einsum: einstein sum subscripts string contains a '.' that is not part of an "
             "ellipsis ('...')";
      SHADE_CHECK(!ellipsis) << "einsum: einstein sum subscripts string contains more than one "
                                "ellipsis ('...') in "
                             << (output ? "the output" : "an operand");
      ellipsis = true;
      out.push_back(-1);
      i += 2;
      continue;
    }
    SHADE_CHECK(std::isalpha(static_cast<unsigned char>(c)))
        << "einsum: invalid subscript '" << c
        << "' in einstein sum subscripts string, subscripts must be letters";
    out.push_back(LabelOf(c));
  }
  return out;
}

struct Term {
  NDArray a;
  std::vector<int> labels;  // one per axis of a, distinct
};

bool Has(const std::vector<int>& v, int x) {
  return std::find(v.begin(), v.end(), x) != v.end();
}

// Sums the axes of t whose labels are not in keep.
Term SumOut(Term t, const std::vector<int>& keep) {
  std::vector<index_t> axes;
  std::vector<int> rest;
  for (std::size_t d = 0; d < t.labels.size(); ++d) {
    if (Has(keep, t.labels[d])) {
      rest.push_back(t.labels[d]);
    } else {
      axes.push_back(static_cast<index_t>(d));
    }
  }
  if (axes.empty()) return t;
  const int flag = t.a.type_flag();
  NDArray s = sum(t.a, axes);
  // sum widens integers (and bool) to int64; einsum keeps the operands' dtype.
  if (s.type_flag() != flag) s = astype(s, flag);
  return Term{s, rest};
}

// Labels that terms other than `skip1` / `skip2`, or the output, still need.
std::vector<int> Needed(const std::vector<Term>& terms, std::size_t skip1, std::size_t skip2,
                        const std::vector<int>& output) {
  std::vector<int> keep = output;
  for (std::size_t i = 0; i < terms.size(); ++i) {
    if (i == skip1 || i == skip2) continue;
    keep.insert(keep.end(), terms[i].labels.begin(), terms[i].labels.end());
  }
  return keep;
}

// x and y contracted over their shared labels not in keep: one batched matmul.
Term Contract(Term x, Term y, const std::vector<int>& keep, const std::vector<index_t>& size) {
  std::vector<int> keep_x = keep, keep_y = keep;
  keep_x.insert(keep_x.end(), y.labels.begin(), y.labels.end());
  keep_y.insert(keep_y.end(), x.labels.begin(), x.labels.end());
  x = SumOut(std::move(x), keep_x);
  y = SumOut(std::move(y), keep_y);
  std::vector<int> batch, xonly, yonly, summed;
  for (int l : x.labels) {
    if (Has(y.labels, l)) {
      (Has(keep, l) ? batch : summed).push_back(l);
    } else {
      xonly.push_back(l);
    }
  }
  for (int l : y.labels) {
    if (!Has(x.labels, l)) yonly.push_back(l);
  }
  auto perm = [](const Term& t, std::initializer_list<const std::vector<int>*> groups) {
    std::vector<index_t> p;
    for (const std::vector<int>* g : groups) {
      for (int l : *g) {
        p.push_back(std::find(t.labels.begin(), t.labels.end(), l) - t.labels.begin());
      }
    }
    return p;
  };
  auto count = [&](const std::vector<int>& g) {
    index_t n = 1;
    for (int l : g) n *= size[l];
    return n;
  };
  const index_t nb = count(batch), m = count(xonly), k = count(summed), n = count(yonly);
  const NDArray xa = x.a.permute(perm(x, {&batch, &xonly, &summed})).reshape({nb, m, k});
  const NDArray ya = y.a.permute(perm(y, {&batch, &summed, &yonly})).reshape({nb, k, n});
  std::vector<index_t> shape;
  std::vector<int> labels;
  for (const std::vector<int>* g : {&batch, &xonly, &yonly}) {
    for (int l : *g) {
      shape.push_back(size[l]);
      labels.push_back(l);
    }
  }
  return Term{matmul(xa, ya).reshape(shape), labels};
}

}  // namespace

NDArray einsum(const std::string& subscripts, const std::vector<NDArray>& operands,
               EinsumOptimize optimize) {
  SHADE_CHECK(!operands.empty()) << "einsum: No input operands";
  for (std::size_t i = 0; i < operands.size(); ++i) {
    SHADE_CHECK(operands[i].defined()) << "einsum: operand " << i << " is undefined";
    SHADE_CHECK_TYPE_GE(operands[i].type_flag(), 0)
        << "einsum: operand " << i << " has non-numeric element type";
  }
  {
    std::vector<const NDArray*> ptrs;
    for (const NDArray& a : operands) ptrs.push_back(&a);
    CheckDevices("einsum", ptrs.data(), static_cast<int>(ptrs.size()));
  }
  // Split "in0,in1,...->out".
  const std::size_t arrow = subscripts.find("->");
  const bool explicit_out = arrow != std::string::npos;
  const std::string lhs = explicit_out ? subscripts.substr(0, arrow) : subscripts;
  SHADE_CHECK(!explicit_out || subscripts.find("->", arrow + 2) == std::string::npos)
      << "einsum: einstein sum subscript string contains more than one '->'";
  SHADE_CHECK(lhs.find('>') == std::string::npos && lhs.find('-') == std::string::npos)
      << "einsum: einstein sum subscript string does not contain proper '->' output specified";
  std::vector<std::string> terms_text;
  std::size_t start = 0;
  while (true) {
    const std::size_t comma = lhs.find(',', start);
    terms_text.push_back(lhs.substr(start, comma == std::string::npos ? comma : comma - start));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  SHADE_CHECK(terms_text.size() <= operands.size())
      << "einsum: fewer operands provided to einstein sum function than specified in the "
         "subscripts string";
  SHADE_CHECK(terms_text.size() >= operands.size())
      << "einsum: more operands provided to einstein sum function than specified in the "
         "subscripts string";
  const std::size_t nops = operands.size();
  std::vector<std::vector<int>> raw(nops);
  int max_ell = 0;
  for (std::size_t i = 0; i < nops; ++i) {
    raw[i] = ParseTerm(terms_text[i], false);
    const int letters = static_cast<int>(raw[i].size()) - (Has(raw[i], -1) ? 1 : 0);
    const int nd = operands[i].ndim();
    if (Has(raw[i], -1)) {
      SHADE_CHECK_LE(letters, nd) << "einsum: einstein sum subscripts string contains too many "
                                     "subscripts for operand "
                                  << i;
      max_ell = std::max(max_ell, nd - letters);
    } else {
      SHADE_CHECK(letters == nd) << "einsum: operand " << i << " has " << nd
                                 << " dimensions but its subscripts '" << terms_text[i] << "' name "
                                 << letters
                                 << (letters > nd ? " (too many subscripts)"
                                                  : " (use '...' to broadcast the rest)");
    }
  }
  // Expand ellipses into labels, and take diagonals of repeated labels.
  std::vector<index_t> size(static_cast<std::size_t>(kLetters + max_ell), -1);
  std::vector<Term> terms;
  std::vector<int> counts(size.size(), 0);
  for (std::size_t i = 0; i < nops; ++i) {
    const NDArray& a = operands[i];
    std::vector<int> labels;
    const int letters = static_cast<int>(raw[i].size()) - (Has(raw[i], -1) ? 1 : 0);
    const int ell = a.ndim() - letters;
    for (int l : raw[i]) {
      if (l >= 0) {
        labels.push_back(l);
      } else {
        for (int j = 0; j < ell; ++j) labels.push_back(kEllipsis + max_ell - ell + j);
      }
    }
    std::vector<int> uniq;
    std::vector<index_t> sizes, strides;
    for (std::size_t d = 0; d < labels.size(); ++d) {
      const auto it = std::find(uniq.begin(), uniq.end(), labels[d]);
      if (it == uniq.end()) {
        uniq.push_back(labels[d]);
        sizes.push_back(a.size(static_cast<index_t>(d)));
        strides.push_back(a.stride(static_cast<index_t>(d)));
      } else {
        const std::size_t u = static_cast<std::size_t>(it - uniq.begin());
        SHADE_CHECK_SHAPE_EQ(sizes[u], a.size(static_cast<index_t>(d)))
            << "einsum: dimensions in operand " << i << " for collapsing index '"
            << LabelText(labels[d]) << "' don't match";
        strides[u] += a.stride(static_cast<index_t>(d));
      }
    }
    for (int l : labels) ++counts[l];
    const NDArray diag =
        uniq.size() == labels.size() ? a : a.as_strided(sizes, strides, a.storage_offset());
    for (std::size_t u = 0; u < uniq.size(); ++u) {
      index_t& s = size[uniq[u]];
      if (s == -1 || s == 1) {
        s = sizes[u];  // first sight, or size 1 broadcasting against this one
      } else {
        SHADE_CHECK_SHAPE(sizes[u] == s || sizes[u] == 1)
            << "einsum: operands could not be broadcast together with remapped shapes: label '"
            << LabelText(uniq[u]) << "' has size " << sizes[u] << " in operand " << i << " and "
            << s << " elsewhere";
      }
    }
    terms.push_back(Term{diag, uniq});
  }
  // Output labels.
  std::vector<int> output;
  if (explicit_out) {
    const std::vector<int> out_raw = ParseTerm(subscripts.substr(arrow + 2), true);
    bool out_ell = false;
    for (int l : out_raw) {
      if (l < 0) {
        out_ell = true;
        for (int j = 0; j < max_ell; ++j) output.push_back(kEllipsis + j);
        continue;
      }
      SHADE_CHECK(!Has(output, l)) << "einsum: einstein sum subscripts string includes output "
                                      "subscript '"
                                   << CharOf(l) << "' multiple times";
      SHADE_CHECK(counts[l] > 0) << "einsum: einstein sum subscripts string included output "
                                    "subscript '"
                                 << CharOf(l) << "' which never appeared in an input";
      output.push_back(l);
    }
    SHADE_CHECK(out_ell || max_ell == 0)
        << "einsum: output has more dimensions than subscripts given in einstein sum, but no "
           "'...' ellipsis provided to broadcast the extra dimensions.";
  } else {
    for (int j = 0; j < max_ell; ++j) output.push_back(kEllipsis + j);
    for (int l = 0; l < kLetters; ++l) {
      if (counts[l] == 1) output.push_back(l);
    }
  }
  // Broadcast size-1 axes to their label's size.
  for (Term& t : terms) {
    std::vector<index_t> full;
    bool differs = false;
    for (std::size_t d = 0; d < t.labels.size(); ++d) {
      full.push_back(size[t.labels[d]]);
      differs = differs || full.back() != t.a.size(static_cast<index_t>(d));
    }
    if (differs) t.a = t.a.expand(full);
  }
  int rt = terms[0].a.type_flag();
  for (std::size_t i = 1; i < terms.size(); ++i) rt = PromoteTypes(rt, terms[i].a.type_flag());
  // Contract pairs until one term is left.
  while (terms.size() > 1) {
    std::size_t bi = 0, bj = 1;
    if (optimize == EinsumOptimize::kGreedy && terms.size() > 2) {
      double best = -1;
      for (std::size_t i = 0; i < terms.size(); ++i) {
        for (std::size_t j = i + 1; j < terms.size(); ++j) {
          const std::vector<int> keep = Needed(terms, i, j, output);
          std::set<int> res;
          for (const Term* t : {&terms[i], &terms[j]}) {
            for (int l : t->labels) {
              if (Has(keep, l)) res.insert(l);
            }
          }
          double cost = 1;
          for (int l : res) cost *= static_cast<double>(size[l]);
          if (best < 0 || cost < best) {
            best = cost;
            bi = i;
            bj = j;
          }
        }
      }
    }
    const std::vector<int> keep = Needed(terms, bi, bj, output);
    Term c = Contract(terms[bi], terms[bj], keep, size);
    terms.erase(terms.begin() + static_cast<std::ptrdiff_t>(bj));
    terms.erase(terms.begin() + static_cast<std::ptrdiff_t>(bi));
    terms.push_back(std::move(c));
  }
  Term last = SumOut(std::move(terms[0]), output);
  std::vector<index_t> perm;
  for (int l : output) {
    perm.push_back(std::find(last.labels.begin(), last.labels.end(), l) - last.labels.begin());
  }
  NDArray r = last.a.permute(perm);
  if (r.type_flag() != rt) r = astype(r, rt);
  return r;
}

}  // namespace shade
