/* The sampler's only C++: access to SpiderMonkey's public profiling headers
 * that mozjs's bindings do not expose. See src/glue.rs for the invariants. */

#include <stddef.h>
#include <stdint.h>

#include "jsapi.h"
#include "js/ProfilingStack.h"

extern "C" {

/* sizeof(ProfilingStack) as this translation unit sees it: the Rust side
 * checks it against bindgen's layout, which proves both were compiled with
 * the same configuration. */
size_t jsprof_glue_profiling_stack_size() { return sizeof(ProfilingStack); }

/* "JavaScript-C<version>" of the linked library. */
const char* jsprof_glue_implementation_version() {
  return JS_GetImplementationVersion();
}

}  // extern "C"
