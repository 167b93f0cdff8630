/*!
 * \file dmlc.h
 * \brief dmlc-core's parameter API on top of shade::Parameter: code written against
 *  <dmlc/parameter.h>, <dmlc/optional.h> and <dmlc/json.h> (for Parameter::Save/Load)
 *  compiles unchanged when it includes this header instead.
 *
 * Every name here is an alias of the shade entity, so dmlc-style structs and shade structs
 * are the same kind of object and share one implementation.
 */
#ifndef SHADE_COMPAT_DMLC_H_
#define SHADE_COMPAT_DMLC_H_

#include "shade/base/error.h"
#include "shade/param/json.h"
#include "shade/param/optional.h"
#include "shade/param/parameter.h"

namespace dmlc {

/*! \brief dmlc::Error is shade::Error. */
using Error = ::shade::Error;
/*! \brief Thrown by parameter parsing and checking (a shade::Error). */
using ParamError = ::shade::ParamError;
/*! \brief Description strings of a field. */
using ParamFieldInfo = ::shade::ParamFieldInfo;
/*! \brief Base of parameter structs: `struct P : public dmlc::Parameter<P>`. */
template <typename PType>
using Parameter = ::shade::Parameter<PType>;
/*! \brief Optional value, "None" when empty. */
template <typename T>
using optional = ::shade::optional<T>;
/*! \brief The empty-optional tag. */
using ::shade::nullopt;
/*! \brief Type of nullopt. */
using ::shade::nullopt_t;
/*! \brief JSON writer accepted by Parameter::Save. */
using JSONWriter = ::shade::JSONWriter;
/*! \brief JSON reader accepted by Parameter::Load. */
using JSONReader = ::shade::JSONReader;
/*! \brief Environment variable parsed like a parameter field. */
using ::shade::GetEnv;
/*! \brief Sets an environment variable to a value's parameter text. */
using ::shade::SetEnv;

/*! \brief Parameter internals, under dmlc-core's names. */
namespace parameter {
using ::shade::parameter::FieldAccessEntry;
using ::shade::parameter::FieldEntry;
using ::shade::parameter::FieldEntryBase;
using ::shade::parameter::FieldEntryNumeric;
using ::shade::parameter::kAllMatch;
using ::shade::parameter::kAllowHidden;
using ::shade::parameter::kAllowUnknown;
using ::shade::parameter::ParamInitOption;
using ::shade::parameter::ParamManager;
using ::shade::parameter::ParamManagerSingleton;
}  // namespace parameter

}  // namespace dmlc

/*! \brief dmlc-core spelling of SHADE_DECLARE_PARAMETER. */
#define DMLC_DECLARE_PARAMETER(PType) SHADE_DECLARE_PARAMETER(PType)
/*! \brief dmlc-core spelling of SHADE_DECLARE_FIELD; the field's errors are dmlc-core's texts. */
#define DMLC_DECLARE_FIELD(FieldName) SHADE_DECLARE_FIELD(FieldName).use_dmlc_messages()
/*! \brief dmlc-core spelling of SHADE_DECLARE_ALIAS. */
#define DMLC_DECLARE_ALIAS(FieldName, AliasName) SHADE_DECLARE_ALIAS(FieldName, AliasName)
/*! \brief dmlc-core spelling of SHADE_REGISTER_PARAMETER. */
#define DMLC_REGISTER_PARAMETER(PType) SHADE_REGISTER_PARAMETER(PType)

#endif  // SHADE_COMPAT_DMLC_H_
