/*
 * TAP output for the C test programs that prove runs: ok() counts and
 * prints one test, diag() a comment; main prints "1..tap_n" at the end.
 */
#ifndef REGRESS_TAP_H
#define REGRESS_TAP_H

#include <stdarg.h>
#include <stdio.h>

static int	 tap_n, tap_failed;

static void __attribute__((format(printf, 2, 3), unused))
ok(int cond, const char *fmt, ...)
{
	va_list	 ap;

	printf("%sok %d - ", cond ? "" : "not ", ++tap_n);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	if (!cond)
		tap_failed++;
}

static void __attribute__((format(printf, 1, 2), unused))
diag(const char *fmt, ...)
{
	va_list	 ap;

	printf("# ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
}

#endif
