/*
 * A sandbox's labels (sandboxctl create --label KEY=VALUE), packed as
 * "KEY=VALUE\0" strings: their rules, and the checks every receiver
 * makes on a packed set.
 */
#ifndef SANDBOXD_LABEL_H
#define SANDBOXD_LABEL_H

#include <stddef.h>
#include <stdint.h>

#define LABEL_MAX		16	/* labels a sandbox */
#define LABEL_KEY_MAX		63	/* bytes */
#define LABEL_VALUE_MAX		255	/* bytes */

/* One "KEY=VALUE": 0, or -1 with the reason in err. */
int	label_check(const char *, char *, size_t);
/*
 * Append s to the packed set buf (size SBX_LABELS_SIZE); a key given
 * twice, too many labels or too many bytes is refused (-1, err).
 */
int	label_add(char *, uint32_t *, uint32_t *, const char *, char *,
	    size_t);
/* A packed set as a receiver gets it: every label valid, no repeat. */
int	label_check_set(const char *, size_t, uint32_t, uint32_t);
/* The value of key in a checked set, or NULL. */
const char *label_get(const char *, uint32_t, const char *);

#endif
