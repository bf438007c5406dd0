#ifndef SANDBOXD_SECCOMP_SANDBOX_H
#define SANDBOXD_SECCOMP_SANDBOX_H

#include <stddef.h>

extern const char *const	seccomp_sandbox_allow[];
extern const size_t		seccomp_sandbox_nallow;
extern const char *const	seccomp_sandbox_moded[];
extern const size_t		seccomp_sandbox_nmoded;

#endif
