#ifndef SANDBOXCTL_H
#define SANDBOXCTL_H

#include "sandboxd_imsg.h"

extern int	 json;

/* output.c */
void	show_status_header(void);
void	show_proc_status(const struct ctl_proc_status *);
int	show_result(const struct ctl_result *, const char *);

#endif
