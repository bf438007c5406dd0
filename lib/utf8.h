/* Strict UTF-8: what JSON strings and sandbox environments may carry. */
#ifndef SANDBOXD_UTF8_H
#define SANDBOXD_UTF8_H

#include <stddef.h>

/* Length of the well-formed sequence at s (RFC 3629), or 0 if none. */
size_t	utf8_seqlen(const char *, size_t);
/* 1 if s[0..len) is well-formed UTF-8 (no overlongs, no surrogates). */
int	utf8_valid(const char *, size_t);

#endif
