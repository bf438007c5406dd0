/*
 * runnerd: creates sandboxes and runs commands in them.  Stays uid 0
 * with a bounded capability set; talks to the master on fd 3.
 */
#include <stdlib.h>

#include "child.h"
#include "log.h"

static struct sandboxd_conf	*runnerd_conf;

static void
runnerd_conf_apply(struct sandboxd_conf *conf)
{
	if (runnerd_conf != NULL)
		conf_free(runnerd_conf);
	runnerd_conf = conf;
}

static int
runnerd_dispatch_main(struct imsg *imsg)
{
	return (-1);
}

static const struct child_ops runnerd_ops = {
	.name = "runnerd",
	.conf_apply = runnerd_conf_apply,
	.dispatch_main = runnerd_dispatch_main,
};

int
main(int argc, char *argv[])
{
	child_main(argc, argv, &runnerd_ops);
}
