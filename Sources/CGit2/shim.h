#ifndef CGIT2_SHIM_H
#define CGIT2_SHIM_H
// libgit2 1.5 (Debian: libgit2-dev), used only inside JunosHistory (GitBackupStore).
#include <git2.h>
#endif
