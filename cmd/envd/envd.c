/*
 * envd: sanitized environments and the secrets broker.  Runs as
 * _sbxenvd in a chroot with no capabilities; talks to the master on fd 3.
 */
#include <stdlib.h>

#include "child.h"
#include "log.h"

static struct sandboxd_conf	*envd_conf;

static void
envd_conf_apply(struct sandboxd_conf *conf)
{
	if (envd_conf != NULL)
		conf_free(envd_conf);
	envd_conf = conf;
}

static int
envd_dispatch_main(struct imsg *imsg)
{
	return (-1);
}

static const struct child_ops envd_ops = {
	.name = "envd",
	.conf_apply = envd_conf_apply,
	.dispatch_main = envd_dispatch_main,
};

int
main(int argc, char *argv[])
{
	child_main(argc, argv, &envd_ops);
}
