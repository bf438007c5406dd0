/* Sending and receiving the config as IMSG_RECONF_* transactions. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conf_imsg.h"
#include "log.h"
#include "proc.h"
#include "sandboxd_imsg.h"

#define SEND_LIST(iev, head, type, var)					\
	TAILQ_FOREACH(var, head, entry)					\
		if (imsgev_compose(iev, type, 0, 0, -1, &var->m,	\
		    sizeof(var->m)) == -1)				\
			return (-1)

int
conf_send(struct imsgev *iev, const struct sandboxd_conf *conf,
    unsigned int parts)
{
	struct conf_policy	*p;
	struct conf_net_rule	*n;
	struct conf_upstream	*u;
	struct conf_env_rule	*e;
	struct conf_secret_rule	*s;
	struct conf_fs_rule	*f;
	struct conf_secret	*v;

	if (imsgev_compose(iev, IMSG_RECONF_CONF, 0, 0, -1, &conf->global,
	    sizeof(conf->global)) == -1)
		return (-1);
	SEND_LIST(iev, &conf->policies, IMSG_RECONF_POLICY, p);
	if (parts & CONF_PART_NET)
		SEND_LIST(iev, &conf->net_rules, IMSG_RECONF_NET_RULE, n);
	if (parts & CONF_PART_DNS)
		SEND_LIST(iev, &conf->upstreams, IMSG_RECONF_UPSTREAM, u);
	if (parts & CONF_PART_ENV) {
		SEND_LIST(iev, &conf->env_rules, IMSG_RECONF_ENV_RULE, e);
		SEND_LIST(iev, &conf->secret_rules, IMSG_RECONF_SECRET_RULE,
		    s);
	}
	if (parts & CONF_PART_FS)
		SEND_LIST(iev, &conf->fs_rules, IMSG_RECONF_FS_RULE, f);
	if (parts & CONF_PART_SECRETS)
		SEND_LIST(iev, &conf->secrets, IMSG_RECONF_SECRET, v);
	return (imsgev_compose(iev, IMSG_RECONF_END, 0, 0, -1, NULL, 0));
}

/*
 * Take one item: check its exact size and contents, then append a copy
 * to the pending config's list.
 */
#define RECV_ITEM(imsg, conf, list, tag, check, err, errlen) do {	\
	struct tag *item_;						\
	if ((item_ = calloc(1, sizeof(*item_))) == NULL)		\
		fatal("%s", __func__);					\
	if (imsg_get_data(imsg, &item_->m, sizeof(item_->m)) == -1) {	\
		freezero(item_, sizeof(*item_));			\
		snprintf(err, errlen, "bad length %zu for type %u",	\
		    imsg_get_len(imsg), imsg_get_type(imsg));		\
		return (-1);						\
	}								\
	if (check(&item_->m, err, errlen) == -1) {			\
		freezero(item_, sizeof(*item_));			\
		return (-1);						\
	}								\
	TAILQ_INSERT_TAIL(&(conf)->list, item_, entry);			\
} while (0)

static int
conf_recv_global(struct sandboxd_conf **pending, struct imsg *imsg,
    char *err, size_t errlen)
{
	struct sandboxd_conf	*nconf;

	if (*pending != NULL) {
		snprintf(err, errlen, "RECONF_CONF inside a transaction");
		return (-1);
	}
	if ((nconf = conf_new()) == NULL)
		fatal("%s", __func__);
	if (imsg_get_data(imsg, &nconf->global, sizeof(nconf->global)) ==
	    -1) {
		snprintf(err, errlen, "bad RECONF_CONF length %zu",
		    imsg_get_len(imsg));
		conf_free(nconf);
		return (-1);
	}
	if (conf_check_global(&nconf->global, err, errlen) == -1) {
		conf_free(nconf);
		return (-1);
	}
	*pending = nconf;
	return (0);
}

static int
conf_recv_item(struct sandboxd_conf *c, struct imsg *imsg, char *err,
    size_t errlen)
{
	switch (imsg_get_type(imsg)) {
	case IMSG_RECONF_POLICY:
		RECV_ITEM(imsg, c, policies, conf_policy, conf_check_policy,
		    err, errlen);
		break;
	case IMSG_RECONF_NET_RULE:
		RECV_ITEM(imsg, c, net_rules, conf_net_rule,
		    conf_check_net_rule, err, errlen);
		break;
	case IMSG_RECONF_UPSTREAM:
		RECV_ITEM(imsg, c, upstreams, conf_upstream,
		    conf_check_upstream, err, errlen);
		break;
	case IMSG_RECONF_ENV_RULE:
		RECV_ITEM(imsg, c, env_rules, conf_env_rule,
		    conf_check_env_rule, err, errlen);
		break;
	case IMSG_RECONF_SECRET_RULE:
		RECV_ITEM(imsg, c, secret_rules, conf_secret_rule,
		    conf_check_secret_rule, err, errlen);
		break;
	case IMSG_RECONF_FS_RULE:
		RECV_ITEM(imsg, c, fs_rules, conf_fs_rule, conf_check_fs_rule,
		    err, errlen);
		break;
	case IMSG_RECONF_SECRET:
		RECV_ITEM(imsg, c, secrets, conf_secret, conf_check_secret,
		    err, errlen);
		break;
	default:
		snprintf(err, errlen, "unexpected type %u",
		    imsg_get_type(imsg));
		return (-1);
	}
	return (0);
}

int
conf_recv(struct sandboxd_conf **pending, struct imsg *imsg,
    struct sandboxd_conf **done, char *err, size_t errlen)
{
	*done = NULL;
	if (imsg_get_type(imsg) == IMSG_RECONF_CONF)
		return (conf_recv_global(pending, imsg, err, errlen));
	if (*pending == NULL) {
		snprintf(err, errlen, "type %u outside a transaction",
		    imsg_get_type(imsg));
		return (-1);
	}
	if (imsg_get_type(imsg) != IMSG_RECONF_END)
		return (conf_recv_item(*pending, imsg, err, errlen));
	if (imsg_get_len(imsg) != 0) {
		snprintf(err, errlen, "RECONF_END with payload");
		return (-1);
	}
	if (conf_policy_find(*pending, CONF_DEFAULT_POLICY) == NULL) {
		snprintf(err, errlen, "config without a default policy");
		return (-1);
	}
	*done = *pending;
	*pending = NULL;
	return (1);
}

int
conf_count_policies(const struct sandboxd_conf *conf)
{
	struct conf_policy	*p;
	int			 n = 0;

	TAILQ_FOREACH(p, &conf->policies, entry)
		n++;
	return (n);
}

#define COUNT_LIST(head, var, n)	TAILQ_FOREACH(var, head, entry) n++

int
conf_count_rules(const struct sandboxd_conf *conf)
{
	struct conf_net_rule	*n;
	struct conf_upstream	*u;
	struct conf_env_rule	*e;
	struct conf_secret_rule	*s;
	struct conf_fs_rule	*f;
	int			 count = 0;

	COUNT_LIST(&conf->net_rules, n, count);
	COUNT_LIST(&conf->upstreams, u, count);
	COUNT_LIST(&conf->env_rules, e, count);
	COUNT_LIST(&conf->secret_rules, s, count);
	COUNT_LIST(&conf->fs_rules, f, count);
	return (count);
}
