// libpq (Debian libpq-dev), PostgreSQL's client library, for RealmSync only: the engine never
// links it. pkg-config gives the include folder (/usr/include/postgresql).
#ifndef REALMTUI_CPOSTGRES_SHIM_H
#define REALMTUI_CPOSTGRES_SHIM_H

#include <libpq-fe.h>

#endif
