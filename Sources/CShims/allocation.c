#include "cshims_allocation.h"
#if defined(__linux__)
#include <malloc.h>
size_t cshims_allocation_size(const void *p) { return malloc_usable_size((void *)p); }
#elif defined(__APPLE__)
#include <malloc/malloc.h>
size_t cshims_allocation_size(const void *p) { return malloc_size(p); }
#else
size_t cshims_allocation_size(const void *p) { (void)p; return 0; }
#endif
