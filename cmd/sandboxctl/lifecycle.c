/*
 * create's lifecycle options (--ttl, --idle, --label), ps --label, and
 * how a sandbox's lifecycle shows in show, ps and -j.
 */
#include <err.h>
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "duration.h"
#include "label.h"
#include "sandboxctl.h"

/* ps --label: every one must match (KEY=VALUE), or KEY be there. */
static char	*ps_filter[LABEL_MAX];
static int	 ps_nfilter;

static uint32_t
life_duration(const char *opt, const char *s)
{
	uint64_t	 ms;

	if (duration_parse(s, &ms) == -1 || ms % 1000 != 0 || ms == 0 ||
	    ms / 1000 > UINT32_MAX)
		ctl_fail("usage", "bad %s %s: whole seconds, at least 1, with an "
		    "optional s, m or h suffix (30s, 5m, 1h)", opt, s);
	return (ms / 1000);
}

void
life_create_options(int argc, char *argv[], struct sbx_create_req *req)
{
	char	 why[256];
	int	 ch;

	static const struct option longopts[] = {
		{ "tap", no_argument, NULL, 'T' },
		{ "ttl", required_argument, NULL, 'L' },
		{ "idle", required_argument, NULL, 'I' },
		{ "label", required_argument, NULL, 'l' },
		{ NULL, 0, NULL, 0 }
	};

	optind = 0;
	while ((ch = getopt_long(argc, argv, "+Tp:", longopts, NULL)) != -1) {
		switch (ch) {
		case 'p':
			if (strlcpy(req->policy, optarg, sizeof(req->policy)) >=
			    sizeof(req->policy))
				ctl_fail("usage", "policy name too long: %s", optarg);
			break;
		case 'T':
			req->tap = 1;
			break;
		case 'L':
			req->ttl = life_duration("--ttl", optarg);
			break;
		case 'I':
			req->idle = life_duration("--idle", optarg);
			break;
		case 'l':
			if (label_add(req->labels, &req->nlabels,
			    &req->labels_len, optarg, why, sizeof(why)) == -1)
				ctl_fail("usage", "%s", why);
			break;
		default:
			goto usage;
		}
	}
	if (optind == argc)
		return;
 usage:
	ctl_fail("usage", "usage: create [-T | --tap] [-p policy] [--ttl duration] "
	    "[--idle duration] [--label key=value]...");
}

void
life_ps_options(int argc, char *argv[])
{
	char	 why[256];
	int	 ch;

	static const struct option longopts[] = {
		{ "label", required_argument, NULL, 'l' },
		{ NULL, 0, NULL, 0 }
	};

	optind = 0;
	while ((ch = getopt_long(argc, argv, "+", longopts, NULL)) != -1) {
		if (ch != 'l')
			goto usage;
		/* KEY alone matches any value: check it as KEY=. */
		if (ps_nfilter >= LABEL_MAX)
			ctl_fail("usage", "at most %d --label filters", LABEL_MAX);
		if (strchr(optarg, '=') != NULL)
			ps_filter[ps_nfilter] = optarg;
		else if (asprintf(&ps_filter[ps_nfilter], "%s=", optarg) == -1)
			ctl_fail_errno("failed", "asprintf");
		if (label_check(ps_filter[ps_nfilter], why, sizeof(why)) == -1)
			ctl_fail("usage", "--label: %s", why);
		if (strchr(optarg, '=') == NULL)
			ps_filter[ps_nfilter][strlen(optarg)] = '\0';
		ps_nfilter++;
	}
	if (optind == argc)
		return;
 usage:
	ctl_fail("usage", "usage: ps [--label key[=value]]...");
}

/* The labels of a reply, checked as sandboxd must have sent them. */
static int
life_labels_ok(const struct sbx_info *si)
{
	return (label_check_set(si->labels, sizeof(si->labels), si->nlabels,
	    si->labels_len) == 0);
}

int
life_ps_match(const struct sbx_info *si)
{
	const char	*v, *eq;
	char		 key[LABEL_KEY_MAX + 1];
	int		 i;

	if (ps_nfilter > 0 && !life_labels_ok(si))
		ctl_fail("protocol", "malformed labels in a reply");
	for (i = 0; i < ps_nfilter; i++) {
		eq = strchr(ps_filter[i], '=');
		snprintf(key, sizeof(key), "%.*s", eq != NULL ?
		    (int)(eq - ps_filter[i]) : (int)strlen(ps_filter[i]),
		    ps_filter[i]);
		if ((v = label_get(si->labels, si->nlabels, key)) == NULL)
			return (0);
		if (eq != NULL && strcmp(v, eq + 1) != 0)
			return (0);
	}
	return (1);
}

const char *
life_state(const struct sbx_info *si)
{
	return (si->paused ? "paused" : "running");
}

/* "k=v,k2=v2" for a table, or "-". */
void
life_labels_text(const struct sbx_info *si, char *buf, size_t len)
{
	const char	*p = si->labels;
	uint32_t	 i;

	buf[0] = '\0';
	if (!life_labels_ok(si) || si->nlabels == 0) {
		strlcpy(buf, si->nlabels == 0 ? "-" : "?", len);
		return;
	}
	for (i = 0; i < si->nlabels; i++, p += strlen(p) + 1) {
		if (i > 0)
			strlcat(buf, ",", len);
		strlcat(buf, p, len);
	}
}

static json_t *
life_secs_json(uint32_t limit, int64_t left)
{
	if (limit == 0)
		return (json_null());
	return (json_pack("{s:I, s:o}", "limit", (json_int_t)limit, "left",
	    left >= 0 ? json_integer(left) : json_null()));
}

void
life_json(json_t *o, const struct sbx_info *si)
{
	json_t		*labels;
	const char	*p = si->labels;
	char		 key[LABEL_KEY_MAX + 1];
	uint32_t	 i;

	if (o == NULL)
		return;
	if ((labels = json_object()) == NULL)
		ctl_fail_errno("failed", "json_object");
	if (life_labels_ok(si))
		for (i = 0; i < si->nlabels; i++, p += strlen(p) + 1) {
			strlcpy(key, p, sizeof(key));
			key[strcspn(key, "=")] = '\0';
			json_object_set_new(labels, key,
			    json_string(p + strlen(key) + 1));
		}
	json_object_set_new(o, "labels", labels);
	json_object_set_new(o, "state", json_string(life_state(si)));
	json_object_set_new(o, "ttl", life_secs_json(si->ttl, si->ttl_left));
	json_object_set_new(o, "idle", life_secs_json(si->idle,
	    si->idle_left));
}

static void
life_show_secs(const char *what, uint32_t limit, int64_t left)
{
	if (limit == 0)
		printf("%-16s%s\n", what, "none");
	else if (left >= 0)
		printf("%-16s%us (%llds left)\n", what, limit,
		    (long long)left);
	else
		printf("%-16s%us (not counting)\n", what, limit);
}

void
life_show_long(const struct sbx_info *si)
{
	char	 labels[SBX_LABELS_SIZE + LABEL_MAX];

	life_labels_text(si, labels, sizeof(labels));
	printf("%-16s%s\n", "state:", life_state(si));
	life_show_secs("ttl:", si->ttl, si->ttl_left);
	life_show_secs("idle:", si->idle, si->idle_left);
	printf("%-16s%s\n", "labels:", labels);
}
