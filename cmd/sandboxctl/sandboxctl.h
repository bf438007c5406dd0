#ifndef SANDBOXCTL_H
#define SANDBOXCTL_H

#include <jansson.h>
#include <stdio.h>

#include "imsg.h"
#include "sandboxd_imsg.h"

extern int	 json;
extern FILE	*json_out;	/* stdout, or stderr under -i */

#define JSON_VERSION	1	/* of the -j event stream */

/* sandboxctl.c: one request, then its replies until the last one. */
void	 ctl_request(struct imsgbuf *, uint32_t, int, const void *, size_t);
/* Read replies; each is handed to show_reply; returns the exit code. */
int	 ctl_replies(struct imsgbuf *);
void	 ctl_corr(char *);

/* sandbox.c: run, create, exec, kill, destroy, ps, show, put, get */
int	 cmd_run(struct imsgbuf *, int, char *[]);
int	 cmd_create(struct imsgbuf *, int, char *[]);
int	 cmd_exec(struct imsgbuf *, int, char *[]);
int	 cmd_by_id(struct imsgbuf *, uint32_t, int, char *[]);
int	 cmd_ps(struct imsgbuf *, int, char *[]);
int	 cmd_put(struct imsgbuf *, int, char *[]);
int	 cmd_get(struct imsgbuf *, int, char *[]);

/* execcmd.c: exec ids, exec -d, attach, wait, kill EXEC, ps ID */
int	 cmd_attach(struct imsgbuf *, int, char *[]);
int	 cmd_wait(struct imsgbuf *, int, char *[]);
int	 cmd_kill(struct imsgbuf *, int, char *[]);
int	 cmd_exec_ps(struct imsgbuf *, int, char *[]);
void	 show_exec_info(const struct sbx_exec_info *);
/* fileops.c: ls, stat, mkdir, rm, put -r, get -r */
int	 cmd_ls(struct imsgbuf *, int, char *[]);
int	 cmd_stat(struct imsgbuf *, int, char *[]);
int	 cmd_mkdir_rm(struct imsgbuf *, int, char *[]);
int	 cmd_put_tree(struct imsgbuf *, const char *, const char *,
	    const char *);
int	 cmd_get_tree(struct imsgbuf *, const char *, const char *,
	    const char *);

/* lifecycle.c: --ttl, --idle, --label; ps --label; how they show */
void	 life_create_options(int, char *[], struct sbx_create_req *);
void	 life_ps_options(int, char *[]);
int	 life_ps_match(const struct sbx_info *);
const char *life_state(const struct sbx_info *);
void	 life_labels_text(const struct sbx_info *, char *, size_t);
void	 life_json(json_t *, const struct sbx_info *);
void	 life_show_long(const struct sbx_info *);

/* service.c */
int	 cmd_service(struct imsgbuf *, int, char *[]);

/* output.c */
void	 show_status_header(void);
void	 show_proc_status(const struct ctl_proc_status *);
void	 show_hostfw(const struct net_hostfw *);
int	 show_result(const struct ctl_result *);
void	 show_ps_header(void);
void	 show_sandbox(const struct sbx_info *, const char *);
void	 show_exec_start(const struct sbx_exec_start *);
void	 show_output(const struct sbx_output_hdr *, const char *);
int	 show_exec_result(const struct sbx_exec_result *);
void	 show_event_id(const char *, const char *);

/* jsonout.c: the -j event stream. */
struct jev_stream {
	const char	*stream;	/* "stdout", "stderr" */
	char		 id[SBX_ID_SIZE];
	uint32_t	 exec;
	unsigned char	 carry[3];	/* a character cut short */
	size_t		 ncarry;
};
void	 json_emit(json_t *);
void	 jev_output(struct jev_stream *, const char *, size_t);
void	 jev_output_end(struct jev_stream *);
void	 jev_error(const char *, int, const char *, const char *);
void	 ctl_fail(const char *, const char *, ...)
	    __attribute__((noreturn, format(printf, 2, 3)));
void	 ctl_fail_errno(const char *, const char *, ...)
	    __attribute__((noreturn, format(printf, 2, 3)));
void	 show_exec_end(void);
void	 show_service_header(void);
void	 show_service(const struct svc_info *);

/* escape.c: a sandbox's bytes on a terminal, unless raw_output (-r). */
struct esc_state {
	unsigned char	 carry[3];	/* a UTF-8 sequence cut short */
	size_t		 ncarry;
};
extern int	 raw_output;
int	 esc_wanted(int);
void	 esc_write(int, struct esc_state *, const char *, size_t);
void	 esc_flush(int, struct esc_state *);

/* netshow.c */
json_t	*net_ident_json(const struct net_ident *, int);
void	 show_net_info(const struct sbx_net_info *);
void	 show_net_rules(const char *, size_t);
void	 show_net_pins(const struct sbx_net_pins *);
void	 show_net_flush(void);
void	 show_net_unavailable(const char *, const char *);

/* What the last reply said, for the commands that chain requests. */
struct ctl_last {
	struct sbx_info		 sandbox;
	int			 have_sandbox;
	const char		*sandbox_event;	/* "sandbox" or ".create" */
	int			 ps;		/* rows go in a table */
	uint32_t		 last_type;	/* that ended the reply */
	int			 stdio[2];	/* attach: sent by sandboxd */
	int			 service_long;	/* service status */
	int			 service_header;	/* printed */
	/* An exec's end, for the exit event that comes last. */
	struct sbx_exec_result	 exec_result;
	int			 have_exec_result;
	int			 exit_status;
	char			 exec[SBX_EXEC_ID_SIZE];	/* EXEC_START's */
};
extern struct ctl_last	 ctl_last;

#endif
