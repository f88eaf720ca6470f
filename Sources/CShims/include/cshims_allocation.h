#ifndef CSHIMS_ALLOCATION_H
#define CSHIMS_ALLOCATION_H
#include <stddef.h>

/// The usable size of the heap block at `p` (a Swift object): how far RealmSwift may scan an
/// object's memory for its `@Persisted` storage. 0 when unknown.
size_t cshims_allocation_size(const void *p);

#endif
