// SQLite's C API from the system library (libsqlite3-dev), for the benchmark's C-API side.
#include <sqlite3.h>
