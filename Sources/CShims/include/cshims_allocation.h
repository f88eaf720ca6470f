#ifndef CSHIMS_ALLOCATION_H
#define CSHIMS_ALLOCATION_H
#include <stddef.h>

/// The usable size of the heap block at `p` (a Swift object): how far RealmSwift may scan an
/// object's memory for its `@Persisted` storage. 0 when unknown.
size_t cshims_allocation_size(const void *p);

/// The path of the loaded image (executable or shared library) holding address `p`, as the
/// dynamic loader names it; NULL when unknown. The string belongs to the loader.
const char *cshims_image_path(const void *p);

#endif
