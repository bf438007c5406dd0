/*
 * libFuzzer target for the config parser: the input is written to a
 * file and parsed as sandboxd.conf; accepted configs are printed back
 * (to /dev/null), as -nv does.  The parser's errors would flood stderr,
 * so it goes to /dev/null too: judge a run by its exit status and the
 * crash-* files libFuzzer leaves.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "conf.h"
#include "log.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char		 path[] = "/tmp/fuzz_config.XXXXXX";
	static int		 fd = -1;
	struct sandboxd_conf	*conf;

	if (fd == -1) {
		if ((fd = mkstemp(path)) == -1)
			abort();
		log_init(1, 0);
		if (freopen("/dev/null", "w", stderr) == NULL ||
		    freopen("/dev/null", "w", stdout) == NULL)
			abort();
	}
	if (ftruncate(fd, 0) == -1 || pwrite(fd, data, size, 0) !=
	    (ssize_t)size)
		abort();
	if ((conf = parse_config(path, 0)) != NULL) {
		print_config(conf);
		conf_free(conf);
	}
	return (0);
}
