/*
 * dnspind: the resolver that pins what it answers.  Runs as
 * _sbxdnspind in a chroot with no capabilities; talks to the master on fd 3.
 */
#include <stdlib.h>

#include "child.h"
#include "log.h"

static struct sandboxd_conf	*dnspind_conf;

static void
dnspind_conf_apply(struct sandboxd_conf *conf)
{
	if (dnspind_conf != NULL)
		conf_free(dnspind_conf);
	dnspind_conf = conf;
}

static int
dnspind_dispatch_main(struct imsg *imsg)
{
	return (-1);
}

static const struct child_ops dnspind_ops = {
	.name = "dnspind",
	.conf_apply = dnspind_conf_apply,
	.dispatch_main = dnspind_dispatch_main,
};

int
main(int argc, char *argv[])
{
	child_main(argc, argv, &dnspind_ops);
}
