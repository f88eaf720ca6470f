#define _GNU_SOURCE
#include <dlfcn.h>
#include <stddef.h>

const char *cshims_image_path(const void *p) {
    Dl_info info;
    if (p == NULL || dladdr(p, &info) == 0) return NULL;
    return info.dli_fname;
}
