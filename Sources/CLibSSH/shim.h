#ifndef CLIBSSH_SHIM_H
#define CLIBSSH_SHIM_H
// libssh 0.10 (Debian: libssh-dev), used only inside JunosDevice.
#include <libssh/libssh.h>
#include <libssh/callbacks.h>
#endif
