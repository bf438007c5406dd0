/*
 * The message table: for every imsg type who sends it, who receives
 * it, how long its payload is, whether it carries an fd and what
 * checks its contents.  Receivers call imsg_check() before their
 * dispatch switch and take the payload with IMSG_PAYLOAD(); the master
 * routes what it relays by the table.  See lib/msgtab.c.
 */
#ifndef SANDBOXD_MSGTAB_H
#define SANDBOXD_MSGTAB_H

#include <stddef.h>
#include <stdint.h>

#include "imsg.h"
#include "proc.h"

/* The programs, as bits: a row's senders and receivers are sets. */
enum msg_prog {
	MSG_CTL = 0x01,		/* sandboxctl */
	MSG_MASTER = 0x02,	/* sandboxd */
	MSG_NETD = 0x04,
	MSG_ENVD = 0x08,
	MSG_RUNNERD = 0x10,
	MSG_DNSPIND = 0x20
};
#define MSG_CHILDREN	(MSG_NETD | MSG_ENVD | MSG_RUNNERD | MSG_DNSPIND)

enum msg_fd {
	MSG_FD_NEVER = 0,
	MSG_FD_MUST,
	MSG_FD_MAY		/* the validator says when */
};

/* Contents beyond the length: 0, or -1 with err set. */
typedef int	(*msg_validator)(const void *, size_t, int, char *, size_t);

struct msg_row {
	uint32_t	 type;
	const char	*name;		/* without IMSG_ */
	unsigned int	 from;		/* enum msg_prog bits */
	unsigned int	 to;
	size_t		 min;		/* payload bytes */
	size_t		 max;
	enum msg_fd	 fd;
	msg_validator	 check;		/* NULL: the length says all */
};

/* The row of a type; NULL if there is none. */
const struct msg_row	*msg_row(uint32_t);
const char		*msg_name(uint32_t);
const char		*msg_prog_name(enum msg_prog);
enum msg_prog		 msg_prog_of(enum proc_id);
/*
 * Whether prog self may take imsg from the program at the other end of
 * its channel, peer: known type, on a path the table allows, length,
 * fd and contents.  0, or -1 with a reason in err.  The fd stays in
 * the imsg: imsg_free closes it if nobody takes it.
 */
int	 imsg_check(enum msg_prog, enum msg_prog, const struct imsg *,
	    char *, size_t);
/* Whether a and b (enum msg_prog bits) have a channel between them. */
int	 msg_channel(unsigned int, unsigned int);
/* As msg_channel, for the channels between children of lib/peerch.c. */
int	 msg_peer_channel(unsigned int, unsigned int);
/* Whether some row lets peer pass self an fd. */
int	 msg_fds_from(enum msg_prog, enum msg_prog);
/* Whether prog's messages of this row pass through the master. */
int	 msg_relayed(const struct msg_row *, enum msg_prog);
/* The master's relays: the one receiver of a row, 0 if several. */
enum msg_prog	 msg_receiver(const struct msg_row *);
/*
 * The payload of a checked imsg, in place (valid until imsg_free): at
 * least size bytes, or it is a bug: fatalx.
 */
void	*imsg_payload(const struct imsg *, size_t, const char *);
#define IMSG_PAYLOAD(imsg, type)					\
	((type *)imsg_payload((imsg), sizeof(type), __func__))

/* For tests: the table itself, sorted by type. */
extern const struct msg_row	 msg_table[];
extern const size_t		 msg_table_len;

#endif
