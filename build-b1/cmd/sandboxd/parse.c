/* A Bison parser, made by GNU Bison 3.8.2.  */

/* Bison implementation for Yacc-like parsers in C

   Copyright (C) 1984, 1989-1990, 2000-2015, 2018-2021 Free Software Foundation,
   Inc.

   This program is free software: you can redistribute it and/or modify
   it under the terms of the GNU General Public License as published by
   the Free Software Foundation, either version 3 of the License, or
   (at your option) any later version.

   This program is distributed in the hope that it will be useful,
   but WITHOUT ANY WARRANTY; without even the implied warranty of
   MERCHANTABILITY or FITNESS FOR A PARTICULAR PURPOSE.  See the
   GNU General Public License for more details.

   You should have received a copy of the GNU General Public License
   along with this program.  If not, see <https://www.gnu.org/licenses/>.  */

/* As a special exception, you may create a larger work that contains
   part or all of the Bison parser skeleton and distribute that work
   under terms of your choice, so long as that work isn't itself a
   parser generator using the skeleton or a modified version thereof
   as a parser skeleton.  Alternatively, if you modify or redistribute
   the parser skeleton itself, you may (at your option) remove this
   special exception, which will cause the skeleton and the resulting
   Bison output files to be licensed under the GNU General Public
   License without this special exception.

   This special exception was added by the Free Software Foundation in
   version 2.2 of Bison.  */

/* C LALR(1) parser skeleton written by Richard Stallman, by
   simplifying the original so-called "semantic" parser.  */

/* DO NOT RELY ON FEATURES THAT ARE NOT DOCUMENTED in the manual,
   especially those whose name start with YY_ or yy_.  They are
   private implementation details that can be changed or removed.  */

/* All symbols defined below should begin with yy or YY, to avoid
   infringing on user name space.  This should be done even for local
   variables, as they might otherwise be expanded by user macros.
   There are some unavoidable exceptions within include files to
   define necessary library symbols; they are noted "INFRINGES ON
   USER NAME SPACE" below.  */

/* Identify Bison output, and Bison version.  */
#define YYBISON 30802

/* Bison version string.  */
#define YYBISON_VERSION "3.8.2"

/* Skeleton name.  */
#define YYSKELETON_NAME "yacc.c"

/* Pure parsers.  */
#define YYPURE 0

/* Push parsers.  */
#define YYPUSH 0

/* Pull parsers.  */
#define YYPULL 1




/* First part of user prologue.  */
#line 8 "cmd/sandboxd/parse.y"

#include <sys/types.h>
#include <sys/queue.h>
#include <sys/stat.h>
#include <arpa/inet.h>
#include <netinet/in.h>

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conf.h"
#include "duration.h"
#include "log.h"

#define MAX_INCLUDE_DEPTH	8
#define LEX_BUFSIZE		8192	/* > CONF_ENVVAL_SIZE */
#define ERRBUF_SIZE		512
#define START_EXPAND		256	/* unget markers around a macro */
#define DONE_EXPAND		257

struct file {
	TAILQ_ENTRY(file)	 entry;
	FILE			*stream;
	char			*name;
	int			*ungetbuf;
	size_t			 ungetpos;
	size_t			 ungetsize;
	int			 lineno;
	int			 lastc;
	int			 expanding;
	dev_t			 dev;
	ino_t			 ino;
};
static TAILQ_HEAD(files, file)	 files = TAILQ_HEAD_INITIALIZER(files);
static struct file		*file, *topfile;

struct sym {
	TAILQ_ENTRY(sym)	 entry;
	int			 persist;	/* -D: the config cannot override */
	char			*nam;
	char			*val;
};
static TAILQ_HEAD(symhead, sym)	 symhead = TAILQ_HEAD_INITIALIZER(symhead);

/* What a list of names in a block adds. */
enum listctx {
	L_SYSENV, L_PASS, L_UNSET, L_PERMIT, L_EXPOSE, L_READ, L_WRITE, L_EXEC
};

/* The inbound statements of one policy must agree. */
enum inbound_seen {
	INB_NONE, INB_DENY, INB_ANY, INB_FROM
};

/* The last token, for syntax error messages. */
enum tokkind {
	TK_WORD, TK_KEYWORD, TK_QUOTED, TK_NUMBER, TK_NEWLINE, TK_CHAR,
	TK_EOF, TK_ERROR
};

static struct sandboxd_conf	*conf;
static struct conf_policy	*curpol;
static int			 curdetached;	/* bad or duplicate policy */
static enum inbound_seen	 curinbound;
static enum listctx		 listctx;
static struct conf_global_msg	 gsaved;
static struct policy_msg	 psaved;
static int			 errors;
static enum tokkind		 lastkind;
static char			 lasttext[48];
static int			 stmtpos, laststmtpos;	/* tokens into it */
static enum tokkind		 firstkind;	/* of the statement */
static char			 firsttext[48];
static char			 firsterror[200];	/* for sandboxctl */

typedef struct {
	union {
		int64_t		 number;
		uint64_t	 u64;
		char		*string;
	} v;
	int lineno;
} YYSTYPE;
#define YYSTYPE_IS_DECLARED	1

int		 yylex(void);
int		 yyerror(const char *, ...)
		    __attribute__((__format__ (printf, 1, 2)));
int		 cmdline_symset(char *);
static void	 parse_warnx(const char *, ...)
		    __attribute__((__format__ (printf, 1, 2)));

static struct file *pushfile(const char *, char *, size_t);
static int	 popfile(void);
static int	 symset(const char *, const char *, int);
static char	*symget(const char *);
static void	 macro_define(const char *, const char *);
static void	 include_file(const char *);
static struct conf_global_msg *gbegin(void);
static int	 gcommit(void);
static struct policy_msg *pbegin(void);
static int	 pcommit(int);
static int	 copystr(char *, size_t, const char *, const char *);
static int	 parse_size(const char *, uint64_t *);
static int	 parse_time(const char *, uint64_t *);
static int	 parse_percent(const char *, int64_t *);
static int	 secs(uint32_t *, uint64_t, const char *);
static int	 msecs(uint32_t *, uint64_t, const char *);
static void	 set_prefix(struct conf_prefix *, const char *, int);
static void	 set_gstr(char *, size_t, const char *, const char *);
static void	 set_pstr(char *, size_t, const char *, const char *);
static void	 set_timeout(const uint64_t *, const uint64_t *);
static void	 set_inbound(enum inbound_seen);
static void	 policy_begin(const char *);
static void	 policy_end(void);
static void	 add_upstream(const char *, int64_t);
static void	 add_host(const char *, int64_t, int64_t);
static void	 add_cidr(uint32_t, const char *);
static void	 add_name(const char *, int64_t, int64_t);
static void	 add_env(uint32_t, const char *, const char *);
static void	 add_listitem(const char *);
static void	 set_restart(int, const int64_t *, const uint64_t *);
static void	 set_watchdog(uint64_t);
static void	 service_begin(const char *);
static void	 service_policy(const char *);
static void	 service_command(void);
static void	 service_arg(const char *);
static void	 service_end(void);
static void	 services_check(struct sandboxd_conf *, const char *);
static char	*strpool(const char *);

#line 209 "build/cmd/sandboxd/parse.c"

# ifndef YY_CAST
#  ifdef __cplusplus
#   define YY_CAST(Type, Val) static_cast<Type> (Val)
#   define YY_REINTERPRET_CAST(Type, Val) reinterpret_cast<Type> (Val)
#  else
#   define YY_CAST(Type, Val) ((Type) (Val))
#   define YY_REINTERPRET_CAST(Type, Val) ((Type) (Val))
#  endif
# endif
# ifndef YY_NULLPTR
#  if defined __cplusplus
#   if 201103L <= __cplusplus
#    define YY_NULLPTR nullptr
#   else
#    define YY_NULLPTR 0
#   endif
#  else
#   define YY_NULLPTR ((void*)0)
#  endif
# endif


/* Debug traces.  */
#ifndef YYDEBUG
# define YYDEBUG 0
#endif
#if YYDEBUG
extern int yydebug;
#endif

/* Token kinds.  */
#ifndef YYTOKENTYPE
# define YYTOKENTYPE
  enum yytokentype
  {
    YYEMPTY = -2,
    YYEOF = 0,                     /* "end of file"  */
    YYerror = 256,                 /* error  */
    YYUNDEF = 257,                 /* "invalid token"  */
    ALLOW = 258,                   /* ALLOW  */
    BLOCKALL = 259,                /* BLOCKALL  */
    BUDGET = 260,                  /* BUDGET  */
    CIDR = 261,                    /* CIDR  */
    CONTROL = 262,                 /* CONTROL  */
    CPU = 263,                     /* CPU  */
    DENY = 264,                    /* DENY  */
    EGRESS = 265,                  /* EGRESS  */
    ENV = 266,                     /* ENV  */
    EXEC = 267,                    /* EXEC  */
    EXPOSE = 268,                  /* EXPOSE  */
    FILESYSTEM = 269,              /* FILESYSTEM  */
    FROM = 270,                    /* FROM  */
    FSIZE = 271,                   /* FSIZE  */
    GRACE = 272,                   /* GRACE  */
    GROUP = 273,                   /* GROUP  */
    INBOUND = 274,                 /* INBOUND  */
    INCLUDE = 275,                 /* INCLUDE  */
    IFPREFIX = 276,                /* IFPREFIX  */
    KEEPFAILED = 277,              /* KEEPFAILED  */
    LIMITS = 278,                  /* LIMITS  */
    MAX = 279,                     /* MAX  */
    MEMORY = 280,                  /* MEMORY  */
    NAME = 281,                    /* NAME  */
    NETWORK = 282,                 /* NETWORK  */
    NOFILE = 283,                  /* NOFILE  */
    PASS = 284,                    /* PASS  */
    PERMIT = 285,                  /* PERMIT  */
    PIDS = 286,                    /* PIDS  */
    PINFLOOR = 287,                /* PINFLOOR  */
    PINS = 288,                    /* PINS  */
    POLICY = 289,                  /* POLICY  */
    PORT = 290,                    /* PORT  */
    PREBUILD = 291,                /* PREBUILD  */
    PREFIX = 292,                  /* PREFIX  */
    READ = 293,                    /* READ  */
    RESOLVER = 294,                /* RESOLVER  */
    ROOT = 295,                    /* ROOT  */
    SECRETS = 296,                 /* SECRETS  */
    SET = 297,                     /* SET  */
    SOCKET = 298,                  /* SOCKET  */
    STATEDIR = 299,                /* STATEDIR  */
    STDERR = 300,                  /* STDERR  */
    STDOUT = 301,                  /* STDOUT  */
    SUBNET = 302,                  /* SUBNET  */
    TCP = 303,                     /* TCP  */
    TIMEOUT = 304,                 /* TIMEOUT  */
    TMP = 305,                     /* TMP  */
    UDP = 306,                     /* UDP  */
    UIDRANGE = 307,                /* UIDRANGE  */
    UNSET = 308,                   /* UNSET  */
    UPLINK = 309,                  /* UPLINK  */
    UPSTREAM = 310,                /* UPSTREAM  */
    WORKSPACE = 311,               /* WORKSPACE  */
    WRITE = 312,                   /* WRITE  */
    ERROR = 313,                   /* ERROR  */
    ALWAYS = 314,                  /* ALWAYS  */
    COMMAND = 315,                 /* COMMAND  */
    NEVER = 316,                   /* NEVER  */
    ONFAILURE = 317,               /* ONFAILURE  */
    PER = 318,                     /* PER  */
    RESTART = 319,                 /* RESTART  */
    SERVICE = 320,                 /* SERVICE  */
    WATCHDOG = 321,                /* WATCHDOG  */
    KEEPWORKSPACE = 322,           /* KEEPWORKSPACE  */
    PINCEILING = 323,              /* PINCEILING  */
    CLIENTS = 324,                 /* CLIENTS  */
    QUEUE = 325,                   /* QUEUE  */
    RETENTION = 326,               /* RETENTION  */
    HISTORY = 327,                 /* HISTORY  */
    TTL = 328,                     /* TTL  */
    IDLE = 329,                    /* IDLE  */
    STRING = 330,                  /* STRING  */
    NUMBER = 331                   /* NUMBER  */
  };
  typedef enum yytokentype yytoken_kind_t;
#endif
/* Token kinds.  */
#define YYEMPTY -2
#define YYEOF 0
#define YYerror 256
#define YYUNDEF 257
#define ALLOW 258
#define BLOCKALL 259
#define BUDGET 260
#define CIDR 261
#define CONTROL 262
#define CPU 263
#define DENY 264
#define EGRESS 265
#define ENV 266
#define EXEC 267
#define EXPOSE 268
#define FILESYSTEM 269
#define FROM 270
#define FSIZE 271
#define GRACE 272
#define GROUP 273
#define INBOUND 274
#define INCLUDE 275
#define IFPREFIX 276
#define KEEPFAILED 277
#define LIMITS 278
#define MAX 279
#define MEMORY 280
#define NAME 281
#define NETWORK 282
#define NOFILE 283
#define PASS 284
#define PERMIT 285
#define PIDS 286
#define PINFLOOR 287
#define PINS 288
#define POLICY 289
#define PORT 290
#define PREBUILD 291
#define PREFIX 292
#define READ 293
#define RESOLVER 294
#define ROOT 295
#define SECRETS 296
#define SET 297
#define SOCKET 298
#define STATEDIR 299
#define STDERR 300
#define STDOUT 301
#define SUBNET 302
#define TCP 303
#define TIMEOUT 304
#define TMP 305
#define UDP 306
#define UIDRANGE 307
#define UNSET 308
#define UPLINK 309
#define UPSTREAM 310
#define WORKSPACE 311
#define WRITE 312
#define ERROR 313
#define ALWAYS 314
#define COMMAND 315
#define NEVER 316
#define ONFAILURE 317
#define PER 318
#define RESTART 319
#define SERVICE 320
#define WATCHDOG 321
#define KEEPWORKSPACE 322
#define PINCEILING 323
#define CLIENTS 324
#define QUEUE 325
#define RETENTION 326
#define HISTORY 327
#define TTL 328
#define IDLE 329
#define STRING 330
#define NUMBER 331

/* Value type.  */


extern YYSTYPE yylval;


int yyparse (void);



/* Symbol kind.  */
enum yysymbol_kind_t
{
  YYSYMBOL_YYEMPTY = -2,
  YYSYMBOL_YYEOF = 0,                      /* "end of file"  */
  YYSYMBOL_YYerror = 1,                    /* error  */
  YYSYMBOL_YYUNDEF = 2,                    /* "invalid token"  */
  YYSYMBOL_ALLOW = 3,                      /* ALLOW  */
  YYSYMBOL_BLOCKALL = 4,                   /* BLOCKALL  */
  YYSYMBOL_BUDGET = 5,                     /* BUDGET  */
  YYSYMBOL_CIDR = 6,                       /* CIDR  */
  YYSYMBOL_CONTROL = 7,                    /* CONTROL  */
  YYSYMBOL_CPU = 8,                        /* CPU  */
  YYSYMBOL_DENY = 9,                       /* DENY  */
  YYSYMBOL_EGRESS = 10,                    /* EGRESS  */
  YYSYMBOL_ENV = 11,                       /* ENV  */
  YYSYMBOL_EXEC = 12,                      /* EXEC  */
  YYSYMBOL_EXPOSE = 13,                    /* EXPOSE  */
  YYSYMBOL_FILESYSTEM = 14,                /* FILESYSTEM  */
  YYSYMBOL_FROM = 15,                      /* FROM  */
  YYSYMBOL_FSIZE = 16,                     /* FSIZE  */
  YYSYMBOL_GRACE = 17,                     /* GRACE  */
  YYSYMBOL_GROUP = 18,                     /* GROUP  */
  YYSYMBOL_INBOUND = 19,                   /* INBOUND  */
  YYSYMBOL_INCLUDE = 20,                   /* INCLUDE  */
  YYSYMBOL_IFPREFIX = 21,                  /* IFPREFIX  */
  YYSYMBOL_KEEPFAILED = 22,                /* KEEPFAILED  */
  YYSYMBOL_LIMITS = 23,                    /* LIMITS  */
  YYSYMBOL_MAX = 24,                       /* MAX  */
  YYSYMBOL_MEMORY = 25,                    /* MEMORY  */
  YYSYMBOL_NAME = 26,                      /* NAME  */
  YYSYMBOL_NETWORK = 27,                   /* NETWORK  */
  YYSYMBOL_NOFILE = 28,                    /* NOFILE  */
  YYSYMBOL_PASS = 29,                      /* PASS  */
  YYSYMBOL_PERMIT = 30,                    /* PERMIT  */
  YYSYMBOL_PIDS = 31,                      /* PIDS  */
  YYSYMBOL_PINFLOOR = 32,                  /* PINFLOOR  */
  YYSYMBOL_PINS = 33,                      /* PINS  */
  YYSYMBOL_POLICY = 34,                    /* POLICY  */
  YYSYMBOL_PORT = 35,                      /* PORT  */
  YYSYMBOL_PREBUILD = 36,                  /* PREBUILD  */
  YYSYMBOL_PREFIX = 37,                    /* PREFIX  */
  YYSYMBOL_READ = 38,                      /* READ  */
  YYSYMBOL_RESOLVER = 39,                  /* RESOLVER  */
  YYSYMBOL_ROOT = 40,                      /* ROOT  */
  YYSYMBOL_SECRETS = 41,                   /* SECRETS  */
  YYSYMBOL_SET = 42,                       /* SET  */
  YYSYMBOL_SOCKET = 43,                    /* SOCKET  */
  YYSYMBOL_STATEDIR = 44,                  /* STATEDIR  */
  YYSYMBOL_STDERR = 45,                    /* STDERR  */
  YYSYMBOL_STDOUT = 46,                    /* STDOUT  */
  YYSYMBOL_SUBNET = 47,                    /* SUBNET  */
  YYSYMBOL_TCP = 48,                       /* TCP  */
  YYSYMBOL_TIMEOUT = 49,                   /* TIMEOUT  */
  YYSYMBOL_TMP = 50,                       /* TMP  */
  YYSYMBOL_UDP = 51,                       /* UDP  */
  YYSYMBOL_UIDRANGE = 52,                  /* UIDRANGE  */
  YYSYMBOL_UNSET = 53,                     /* UNSET  */
  YYSYMBOL_UPLINK = 54,                    /* UPLINK  */
  YYSYMBOL_UPSTREAM = 55,                  /* UPSTREAM  */
  YYSYMBOL_WORKSPACE = 56,                 /* WORKSPACE  */
  YYSYMBOL_WRITE = 57,                     /* WRITE  */
  YYSYMBOL_ERROR = 58,                     /* ERROR  */
  YYSYMBOL_ALWAYS = 59,                    /* ALWAYS  */
  YYSYMBOL_COMMAND = 60,                   /* COMMAND  */
  YYSYMBOL_NEVER = 61,                     /* NEVER  */
  YYSYMBOL_ONFAILURE = 62,                 /* ONFAILURE  */
  YYSYMBOL_PER = 63,                       /* PER  */
  YYSYMBOL_RESTART = 64,                   /* RESTART  */
  YYSYMBOL_SERVICE = 65,                   /* SERVICE  */
  YYSYMBOL_WATCHDOG = 66,                  /* WATCHDOG  */
  YYSYMBOL_KEEPWORKSPACE = 67,             /* KEEPWORKSPACE  */
  YYSYMBOL_PINCEILING = 68,                /* PINCEILING  */
  YYSYMBOL_CLIENTS = 69,                   /* CLIENTS  */
  YYSYMBOL_QUEUE = 70,                     /* QUEUE  */
  YYSYMBOL_RETENTION = 71,                 /* RETENTION  */
  YYSYMBOL_HISTORY = 72,                   /* HISTORY  */
  YYSYMBOL_TTL = 73,                       /* TTL  */
  YYSYMBOL_IDLE = 74,                      /* IDLE  */
  YYSYMBOL_STRING = 75,                    /* STRING  */
  YYSYMBOL_NUMBER = 76,                    /* NUMBER  */
  YYSYMBOL_77_n_ = 77,                     /* '\n'  */
  YYSYMBOL_78_ = 78,                       /* ';'  */
  YYSYMBOL_79_ = 79,                       /* '='  */
  YYSYMBOL_80_ = 80,                       /* '{'  */
  YYSYMBOL_81_ = 81,                       /* '}'  */
  YYSYMBOL_82_ = 82,                       /* ','  */
  YYSYMBOL_YYACCEPT = 83,                  /* $accept  */
  YYSYMBOL_grammar = 84,                   /* grammar  */
  YYSYMBOL_sep = 85,                       /* sep  */
  YYSYMBOL_optnl = 86,                     /* optnl  */
  YYSYMBOL_string = 87,                    /* string  */
  YYSYMBOL_include = 88,                   /* include  */
  YYSYMBOL_varset = 89,                    /* varset  */
  YYSYMBOL_num32 = 90,                     /* num32  */
  YYSYMBOL_port = 91,                      /* port  */
  YYSYMBOL_optport = 92,                   /* optport  */
  YYSYMBOL_proto = 93,                     /* proto  */
  YYSYMBOL_size = 94,                      /* size  */
  YYSYMBOL_time = 95,                      /* time  */
  YYSYMBOL_percent = 96,                   /* percent  */
  YYSYMBOL_main = 97,                      /* main  */
  YYSYMBOL_genvblock = 98,                 /* genvblock  */
  YYSYMBOL_genvlist = 99,                  /* genvlist  */
  YYSYMBOL_genvopt = 100,                  /* genvopt  */
  YYSYMBOL_101_1 = 101,                    /* $@1  */
  YYSYMBOL_names = 102,                    /* names  */
  YYSYMBOL_policy = 103,                   /* policy  */
  YYSYMBOL_policyhead = 104,               /* policyhead  */
  YYSYMBOL_plist = 105,                    /* plist  */
  YYSYMBOL_pstmt = 106,                    /* pstmt  */
  YYSYMBOL_restartmode = 107,              /* restartmode  */
  YYSYMBOL_service = 108,                  /* service  */
  YYSYMBOL_servicehead = 109,              /* servicehead  */
  YYSYMBOL_svclist = 110,                  /* svclist  */
  YYSYMBOL_svcopt = 111,                   /* svcopt  */
  YYSYMBOL_112_2 = 112,                    /* $@2  */
  YYSYMBOL_svcargs = 113,                  /* svcargs  */
  YYSYMBOL_netblock = 114,                 /* netblock  */
  YYSYMBOL_netlist = 115,                  /* netlist  */
  YYSYMBOL_netopt = 116,                   /* netopt  */
  YYSYMBOL_117_3 = 117,                    /* $@3  */
  YYSYMBOL_fromlist = 118,                 /* fromlist  */
  YYSYMBOL_fromaddrs = 119,                /* fromaddrs  */
  YYSYMBOL_optcomma = 120,                 /* optcomma  */
  YYSYMBOL_penvblock = 121,                /* penvblock  */
  YYSYMBOL_penvlist = 122,                 /* penvlist  */
  YYSYMBOL_penvopt = 123,                  /* penvopt  */
  YYSYMBOL_124_4 = 124,                    /* $@4  */
  YYSYMBOL_125_5 = 125,                    /* $@5  */
  YYSYMBOL_secblock = 126,                 /* secblock  */
  YYSYMBOL_seclist = 127,                  /* seclist  */
  YYSYMBOL_secopt = 128,                   /* secopt  */
  YYSYMBOL_129_6 = 129,                    /* $@6  */
  YYSYMBOL_130_7 = 130,                    /* $@7  */
  YYSYMBOL_limblock = 131,                 /* limblock  */
  YYSYMBOL_limlist = 132,                  /* limlist  */
  YYSYMBOL_limopt = 133,                   /* limopt  */
  YYSYMBOL_fsblock = 134,                  /* fsblock  */
  YYSYMBOL_fslist = 135,                   /* fslist  */
  YYSYMBOL_fsopt = 136,                    /* fsopt  */
  YYSYMBOL_137_8 = 137,                    /* $@8  */
  YYSYMBOL_138_9 = 138,                    /* $@9  */
  YYSYMBOL_139_10 = 139                    /* $@10  */
};
typedef enum yysymbol_kind_t yysymbol_kind_t;




#ifdef short
# undef short
#endif

/* On compilers that do not define __PTRDIFF_MAX__ etc., make sure
   <limits.h> and (if available) <stdint.h> are included
   so that the code can choose integer types of a good width.  */

#ifndef __PTRDIFF_MAX__
# include <limits.h> /* INFRINGES ON USER NAME SPACE */
# if defined __STDC_VERSION__ && 199901 <= __STDC_VERSION__
#  include <stdint.h> /* INFRINGES ON USER NAME SPACE */
#  define YY_STDINT_H
# endif
#endif

/* Narrow types that promote to a signed type and that can represent a
   signed or unsigned integer of at least N bits.  In tables they can
   save space and decrease cache pressure.  Promoting to a signed type
   helps avoid bugs in integer arithmetic.  */

#ifdef __INT_LEAST8_MAX__
typedef __INT_LEAST8_TYPE__ yytype_int8;
#elif defined YY_STDINT_H
typedef int_least8_t yytype_int8;
#else
typedef signed char yytype_int8;
#endif

#ifdef __INT_LEAST16_MAX__
typedef __INT_LEAST16_TYPE__ yytype_int16;
#elif defined YY_STDINT_H
typedef int_least16_t yytype_int16;
#else
typedef short yytype_int16;
#endif

/* Work around bug in HP-UX 11.23, which defines these macros
   incorrectly for preprocessor constants.  This workaround can likely
   be removed in 2023, as HPE has promised support for HP-UX 11.23
   (aka HP-UX 11i v2) only through the end of 2022; see Table 2 of
   <https://h20195.www2.hpe.com/V2/getpdf.aspx/4AA4-7673ENW.pdf>.  */
#ifdef __hpux
# undef UINT_LEAST8_MAX
# undef UINT_LEAST16_MAX
# define UINT_LEAST8_MAX 255
# define UINT_LEAST16_MAX 65535
#endif

#if defined __UINT_LEAST8_MAX__ && __UINT_LEAST8_MAX__ <= __INT_MAX__
typedef __UINT_LEAST8_TYPE__ yytype_uint8;
#elif (!defined __UINT_LEAST8_MAX__ && defined YY_STDINT_H \
       && UINT_LEAST8_MAX <= INT_MAX)
typedef uint_least8_t yytype_uint8;
#elif !defined __UINT_LEAST8_MAX__ && UCHAR_MAX <= INT_MAX
typedef unsigned char yytype_uint8;
#else
typedef short yytype_uint8;
#endif

#if defined __UINT_LEAST16_MAX__ && __UINT_LEAST16_MAX__ <= __INT_MAX__
typedef __UINT_LEAST16_TYPE__ yytype_uint16;
#elif (!defined __UINT_LEAST16_MAX__ && defined YY_STDINT_H \
       && UINT_LEAST16_MAX <= INT_MAX)
typedef uint_least16_t yytype_uint16;
#elif !defined __UINT_LEAST16_MAX__ && USHRT_MAX <= INT_MAX
typedef unsigned short yytype_uint16;
#else
typedef int yytype_uint16;
#endif

#ifndef YYPTRDIFF_T
# if defined __PTRDIFF_TYPE__ && defined __PTRDIFF_MAX__
#  define YYPTRDIFF_T __PTRDIFF_TYPE__
#  define YYPTRDIFF_MAXIMUM __PTRDIFF_MAX__
# elif defined PTRDIFF_MAX
#  ifndef ptrdiff_t
#   include <stddef.h> /* INFRINGES ON USER NAME SPACE */
#  endif
#  define YYPTRDIFF_T ptrdiff_t
#  define YYPTRDIFF_MAXIMUM PTRDIFF_MAX
# else
#  define YYPTRDIFF_T long
#  define YYPTRDIFF_MAXIMUM LONG_MAX
# endif
#endif

#ifndef YYSIZE_T
# ifdef __SIZE_TYPE__
#  define YYSIZE_T __SIZE_TYPE__
# elif defined size_t
#  define YYSIZE_T size_t
# elif defined __STDC_VERSION__ && 199901 <= __STDC_VERSION__
#  include <stddef.h> /* INFRINGES ON USER NAME SPACE */
#  define YYSIZE_T size_t
# else
#  define YYSIZE_T unsigned
# endif
#endif

#define YYSIZE_MAXIMUM                                  \
  YY_CAST (YYPTRDIFF_T,                                 \
           (YYPTRDIFF_MAXIMUM < YY_CAST (YYSIZE_T, -1)  \
            ? YYPTRDIFF_MAXIMUM                         \
            : YY_CAST (YYSIZE_T, -1)))

#define YYSIZEOF(X) YY_CAST (YYPTRDIFF_T, sizeof (X))


/* Stored state numbers (used for stacks). */
typedef yytype_int16 yy_state_t;

/* State numbers in computations.  */
typedef int yy_state_fast_t;

#ifndef YY_
# if defined YYENABLE_NLS && YYENABLE_NLS
#  if ENABLE_NLS
#   include <libintl.h> /* INFRINGES ON USER NAME SPACE */
#   define YY_(Msgid) dgettext ("bison-runtime", Msgid)
#  endif
# endif
# ifndef YY_
#  define YY_(Msgid) Msgid
# endif
#endif


#ifndef YY_ATTRIBUTE_PURE
# if defined __GNUC__ && 2 < __GNUC__ + (96 <= __GNUC_MINOR__)
#  define YY_ATTRIBUTE_PURE __attribute__ ((__pure__))
# else
#  define YY_ATTRIBUTE_PURE
# endif
#endif

#ifndef YY_ATTRIBUTE_UNUSED
# if defined __GNUC__ && 2 < __GNUC__ + (7 <= __GNUC_MINOR__)
#  define YY_ATTRIBUTE_UNUSED __attribute__ ((__unused__))
# else
#  define YY_ATTRIBUTE_UNUSED
# endif
#endif

/* Suppress unused-variable warnings by "using" E.  */
#if ! defined lint || defined __GNUC__
# define YY_USE(E) ((void) (E))
#else
# define YY_USE(E) /* empty */
#endif

/* Suppress an incorrect diagnostic about yylval being uninitialized.  */
#if defined __GNUC__ && ! defined __ICC && 406 <= __GNUC__ * 100 + __GNUC_MINOR__
# if __GNUC__ * 100 + __GNUC_MINOR__ < 407
#  define YY_IGNORE_MAYBE_UNINITIALIZED_BEGIN                           \
    _Pragma ("GCC diagnostic push")                                     \
    _Pragma ("GCC diagnostic ignored \"-Wuninitialized\"")
# else
#  define YY_IGNORE_MAYBE_UNINITIALIZED_BEGIN                           \
    _Pragma ("GCC diagnostic push")                                     \
    _Pragma ("GCC diagnostic ignored \"-Wuninitialized\"")              \
    _Pragma ("GCC diagnostic ignored \"-Wmaybe-uninitialized\"")
# endif
# define YY_IGNORE_MAYBE_UNINITIALIZED_END      \
    _Pragma ("GCC diagnostic pop")
#else
# define YY_INITIAL_VALUE(Value) Value
#endif
#ifndef YY_IGNORE_MAYBE_UNINITIALIZED_BEGIN
# define YY_IGNORE_MAYBE_UNINITIALIZED_BEGIN
# define YY_IGNORE_MAYBE_UNINITIALIZED_END
#endif
#ifndef YY_INITIAL_VALUE
# define YY_INITIAL_VALUE(Value) /* Nothing. */
#endif

#if defined __cplusplus && defined __GNUC__ && ! defined __ICC && 6 <= __GNUC__
# define YY_IGNORE_USELESS_CAST_BEGIN                          \
    _Pragma ("GCC diagnostic push")                            \
    _Pragma ("GCC diagnostic ignored \"-Wuseless-cast\"")
# define YY_IGNORE_USELESS_CAST_END            \
    _Pragma ("GCC diagnostic pop")
#endif
#ifndef YY_IGNORE_USELESS_CAST_BEGIN
# define YY_IGNORE_USELESS_CAST_BEGIN
# define YY_IGNORE_USELESS_CAST_END
#endif


#define YY_ASSERT(E) ((void) (0 && (E)))

#if !defined yyoverflow

/* The parser invokes alloca or malloc; define the necessary symbols.  */

# ifdef YYSTACK_USE_ALLOCA
#  if YYSTACK_USE_ALLOCA
#   ifdef __GNUC__
#    define YYSTACK_ALLOC __builtin_alloca
#   elif defined __BUILTIN_VA_ARG_INCR
#    include <alloca.h> /* INFRINGES ON USER NAME SPACE */
#   elif defined _AIX
#    define YYSTACK_ALLOC __alloca
#   elif defined _MSC_VER
#    include <malloc.h> /* INFRINGES ON USER NAME SPACE */
#    define alloca _alloca
#   else
#    define YYSTACK_ALLOC alloca
#    if ! defined _ALLOCA_H && ! defined EXIT_SUCCESS
#     include <stdlib.h> /* INFRINGES ON USER NAME SPACE */
      /* Use EXIT_SUCCESS as a witness for stdlib.h.  */
#     ifndef EXIT_SUCCESS
#      define EXIT_SUCCESS 0
#     endif
#    endif
#   endif
#  endif
# endif

# ifdef YYSTACK_ALLOC
   /* Pacify GCC's 'empty if-body' warning.  */
#  define YYSTACK_FREE(Ptr) do { /* empty */; } while (0)
#  ifndef YYSTACK_ALLOC_MAXIMUM
    /* The OS might guarantee only one guard page at the bottom of the stack,
       and a page size can be as small as 4096 bytes.  So we cannot safely
       invoke alloca (N) if N exceeds 4096.  Use a slightly smaller number
       to allow for a few compiler-allocated temporary stack slots.  */
#   define YYSTACK_ALLOC_MAXIMUM 4032 /* reasonable circa 2006 */
#  endif
# else
#  define YYSTACK_ALLOC YYMALLOC
#  define YYSTACK_FREE YYFREE
#  ifndef YYSTACK_ALLOC_MAXIMUM
#   define YYSTACK_ALLOC_MAXIMUM YYSIZE_MAXIMUM
#  endif
#  if (defined __cplusplus && ! defined EXIT_SUCCESS \
       && ! ((defined YYMALLOC || defined malloc) \
             && (defined YYFREE || defined free)))
#   include <stdlib.h> /* INFRINGES ON USER NAME SPACE */
#   ifndef EXIT_SUCCESS
#    define EXIT_SUCCESS 0
#   endif
#  endif
#  ifndef YYMALLOC
#   define YYMALLOC malloc
#   if ! defined malloc && ! defined EXIT_SUCCESS
void *malloc (YYSIZE_T); /* INFRINGES ON USER NAME SPACE */
#   endif
#  endif
#  ifndef YYFREE
#   define YYFREE free
#   if ! defined free && ! defined EXIT_SUCCESS
void free (void *); /* INFRINGES ON USER NAME SPACE */
#   endif
#  endif
# endif
#endif /* !defined yyoverflow */

#if (! defined yyoverflow \
     && (! defined __cplusplus \
         || (defined YYSTYPE_IS_TRIVIAL && YYSTYPE_IS_TRIVIAL)))

/* A type that is properly aligned for any stack member.  */
union yyalloc
{
  yy_state_t yyss_alloc;
  YYSTYPE yyvs_alloc;
};

/* The size of the maximum gap between one aligned stack and the next.  */
# define YYSTACK_GAP_MAXIMUM (YYSIZEOF (union yyalloc) - 1)

/* The size of an array large to enough to hold all stacks, each with
   N elements.  */
# define YYSTACK_BYTES(N) \
     ((N) * (YYSIZEOF (yy_state_t) + YYSIZEOF (YYSTYPE)) \
      + YYSTACK_GAP_MAXIMUM)

# define YYCOPY_NEEDED 1

/* Relocate STACK from its old location to the new one.  The
   local variables YYSIZE and YYSTACKSIZE give the old and new number of
   elements in the stack, and YYPTR gives the new location of the
   stack.  Advance YYPTR to a properly aligned location for the next
   stack.  */
# define YYSTACK_RELOCATE(Stack_alloc, Stack)                           \
    do                                                                  \
      {                                                                 \
        YYPTRDIFF_T yynewbytes;                                         \
        YYCOPY (&yyptr->Stack_alloc, Stack, yysize);                    \
        Stack = &yyptr->Stack_alloc;                                    \
        yynewbytes = yystacksize * YYSIZEOF (*Stack) + YYSTACK_GAP_MAXIMUM; \
        yyptr += yynewbytes / YYSIZEOF (*yyptr);                        \
      }                                                                 \
    while (0)

#endif

#if defined YYCOPY_NEEDED && YYCOPY_NEEDED
/* Copy COUNT objects from SRC to DST.  The source and destination do
   not overlap.  */
# ifndef YYCOPY
#  if defined __GNUC__ && 1 < __GNUC__
#   define YYCOPY(Dst, Src, Count) \
      __builtin_memcpy (Dst, Src, YY_CAST (YYSIZE_T, (Count)) * sizeof (*(Src)))
#  else
#   define YYCOPY(Dst, Src, Count)              \
      do                                        \
        {                                       \
          YYPTRDIFF_T yyi;                      \
          for (yyi = 0; yyi < (Count); yyi++)   \
            (Dst)[yyi] = (Src)[yyi];            \
        }                                       \
      while (0)
#  endif
# endif
#endif /* !YYCOPY_NEEDED */

/* YYFINAL -- State number of the termination state.  */
#define YYFINAL  2
/* YYLAST -- Last index in YYTABLE.  */
#define YYLAST   366

/* YYNTOKENS -- Number of terminals.  */
#define YYNTOKENS  83
/* YYNNTS -- Number of nonterminals.  */
#define YYNNTS  57
/* YYNRULES -- Number of rules.  */
#define YYNRULES  182
/* YYNSTATES -- Number of states.  */
#define YYNSTATES  308

/* YYMAXUTOK -- Last valid token kind.  */
#define YYMAXUTOK   331


/* YYTRANSLATE(TOKEN-NUM) -- Symbol number corresponding to TOKEN-NUM
   as returned by yylex, with out-of-bounds checking.  */
#define YYTRANSLATE(YYX)                                \
  (0 <= (YYX) && (YYX) <= YYMAXUTOK                     \
   ? YY_CAST (yysymbol_kind_t, yytranslate[YYX])        \
   : YYSYMBOL_YYUNDEF)

/* YYTRANSLATE[TOKEN-NUM] -- Symbol number corresponding to TOKEN-NUM
   as returned by yylex.  */
static const yytype_int8 yytranslate[] =
{
       0,     2,     2,     2,     2,     2,     2,     2,     2,     2,
      77,     2,     2,     2,     2,     2,     2,     2,     2,     2,
       2,     2,     2,     2,     2,     2,     2,     2,     2,     2,
       2,     2,     2,     2,     2,     2,     2,     2,     2,     2,
       2,     2,     2,     2,    82,     2,     2,     2,     2,     2,
       2,     2,     2,     2,     2,     2,     2,     2,     2,    78,
       2,    79,     2,     2,     2,     2,     2,     2,     2,     2,
       2,     2,     2,     2,     2,     2,     2,     2,     2,     2,
       2,     2,     2,     2,     2,     2,     2,     2,     2,     2,
       2,     2,     2,     2,     2,     2,     2,     2,     2,     2,
       2,     2,     2,     2,     2,     2,     2,     2,     2,     2,
       2,     2,     2,     2,     2,     2,     2,     2,     2,     2,
       2,     2,     2,    80,     2,    81,     2,     2,     2,     2,
       2,     2,     2,     2,     2,     2,     2,     2,     2,     2,
       2,     2,     2,     2,     2,     2,     2,     2,     2,     2,
       2,     2,     2,     2,     2,     2,     2,     2,     2,     2,
       2,     2,     2,     2,     2,     2,     2,     2,     2,     2,
       2,     2,     2,     2,     2,     2,     2,     2,     2,     2,
       2,     2,     2,     2,     2,     2,     2,     2,     2,     2,
       2,     2,     2,     2,     2,     2,     2,     2,     2,     2,
       2,     2,     2,     2,     2,     2,     2,     2,     2,     2,
       2,     2,     2,     2,     2,     2,     2,     2,     2,     2,
       2,     2,     2,     2,     2,     2,     2,     2,     2,     2,
       2,     2,     2,     2,     2,     2,     2,     2,     2,     2,
       2,     2,     2,     2,     2,     2,     2,     2,     2,     2,
       2,     2,     2,     2,     2,     2,     1,     2,     3,     4,
       5,     6,     7,     8,     9,    10,    11,    12,    13,    14,
      15,    16,    17,    18,    19,    20,    21,    22,    23,    24,
      25,    26,    27,    28,    29,    30,    31,    32,    33,    34,
      35,    36,    37,    38,    39,    40,    41,    42,    43,    44,
      45,    46,    47,    48,    49,    50,    51,    52,    53,    54,
      55,    56,    57,    58,    59,    60,    61,    62,    63,    64,
      65,    66,    67,    68,    69,    70,    71,    72,    73,    74,
      75,    76
};

#if YYDEBUG
/* YYRLINE[YYN] -- Source line where rule number YYN was defined.  */
static const yytype_int16 yyrline[] =
{
       0,   162,   162,   163,   164,   165,   166,   167,   168,   169,
     172,   173,   176,   177,   180,   181,   189,   192,   195,   203,
     209,   217,   223,   224,   227,   228,   229,   232,   239,   245,
     252,   258,   265,   271,   274,   277,   281,   282,   287,   291,
     296,   300,   305,   310,   314,   318,   323,   327,   331,   335,
     340,   344,   349,   352,   353,   354,   357,   358,   359,   360,
     363,   363,   364,   368,   378,   379,   382,   383,   384,   390,
     393,   394,   395,   396,   399,   403,   404,   405,   406,   407,
     408,   411,   412,   418,   419,   420,   423,   424,   425,   431,
     434,   435,   436,   437,   440,   441,   441,   444,   445,   448,
     449,   450,   453,   454,   455,   456,   459,   463,   467,   471,
     475,   476,   477,   477,   478,   479,   480,   485,   486,   489,
     490,   495,   496,   499,   500,   501,   504,   505,   506,   507,
     510,   510,   511,   512,   512,   515,   516,   517,   520,   521,
     522,   523,   526,   526,   527,   527,   530,   531,   532,   535,
     536,   537,   538,   541,   545,   549,   553,   554,   555,   556,
     560,   564,   568,   572,   576,   580,   584,   590,   598,   599,
     600,   603,   604,   605,   606,   609,   613,   613,   614,   614,
     615,   615,   616
};
#endif

/** Accessing symbol of state STATE.  */
#define YY_ACCESSING_SYMBOL(State) YY_CAST (yysymbol_kind_t, yystos[State])

#if YYDEBUG || 0
/* The user-facing name of the symbol whose (internal) number is
   YYSYMBOL.  No bounds checking.  */
static const char *yysymbol_name (yysymbol_kind_t yysymbol) YY_ATTRIBUTE_UNUSED;

/* YYTNAME[SYMBOL-NUM] -- String name of the symbol SYMBOL-NUM.
   First, the terminals, then, starting at YYNTOKENS, nonterminals.  */
static const char *const yytname[] =
{
  "\"end of file\"", "error", "\"invalid token\"", "ALLOW", "BLOCKALL",
  "BUDGET", "CIDR", "CONTROL", "CPU", "DENY", "EGRESS", "ENV", "EXEC",
  "EXPOSE", "FILESYSTEM", "FROM", "FSIZE", "GRACE", "GROUP", "INBOUND",
  "INCLUDE", "IFPREFIX", "KEEPFAILED", "LIMITS", "MAX", "MEMORY", "NAME",
  "NETWORK", "NOFILE", "PASS", "PERMIT", "PIDS", "PINFLOOR", "PINS",
  "POLICY", "PORT", "PREBUILD", "PREFIX", "READ", "RESOLVER", "ROOT",
  "SECRETS", "SET", "SOCKET", "STATEDIR", "STDERR", "STDOUT", "SUBNET",
  "TCP", "TIMEOUT", "TMP", "UDP", "UIDRANGE", "UNSET", "UPLINK",
  "UPSTREAM", "WORKSPACE", "WRITE", "ERROR", "ALWAYS", "COMMAND", "NEVER",
  "ONFAILURE", "PER", "RESTART", "SERVICE", "WATCHDOG", "KEEPWORKSPACE",
  "PINCEILING", "CLIENTS", "QUEUE", "RETENTION", "HISTORY", "TTL", "IDLE",
  "STRING", "NUMBER", "'\\n'", "';'", "'='", "'{'", "'}'", "','",
  "$accept", "grammar", "sep", "optnl", "string", "include", "varset",
  "num32", "port", "optport", "proto", "size", "time", "percent", "main",
  "genvblock", "genvlist", "genvopt", "$@1", "names", "policy",
  "policyhead", "plist", "pstmt", "restartmode", "service", "servicehead",
  "svclist", "svcopt", "$@2", "svcargs", "netblock", "netlist", "netopt",
  "$@3", "fromlist", "fromaddrs", "optcomma", "penvblock", "penvlist",
  "penvopt", "$@4", "$@5", "secblock", "seclist", "secopt", "$@6", "$@7",
  "limblock", "limlist", "limopt", "fsblock", "fslist", "fsopt", "$@8",
  "$@9", "$@10", YY_NULLPTR
};

static const char *
yysymbol_name (yysymbol_kind_t yysymbol)
{
  return yytname[yysymbol];
}
#endif

#define YYPACT_NINF (-254)

#define yypact_value_is_default(Yyn) \
  ((Yyn) == YYPACT_NINF)

#define YYTABLE_NINF (-122)

#define yytable_value_is_error(Yyn) \
  0

/* YYPACT[STATE-NUM] -- Index in YYTABLE of the portion describing
   STATE-NUM.  */
static const yytype_int16 yypact[] =
{
    -254,   288,  -254,    37,   -14,  -254,    68,    84,    84,    93,
      84,   201,   -47,    84,    84,   -43,   201,    84,   -41,    84,
      93,   -28,  -254,  -254,  -254,    37,    37,    37,    37,   -23,
      37,    -5,  -254,    84,    84,   201,   209,    -8,    93,   201,
    -254,  -254,  -254,  -254,  -254,  -254,  -254,  -254,  -254,  -254,
    -254,    24,  -254,  -254,  -254,   201,  -254,    93,    38,  -254,
    -254,    84,  -254,  -254,  -254,  -254,  -254,  -254,  -254,  -254,
    -254,  -254,  -254,  -254,  -254,  -254,  -254,  -254,  -254,  -254,
      23,    20,  -254,  -254,   229,  -254,    23,  -254,    80,   136,
      41,    38,  -254,  -254,  -254,   -10,  -254,  -254,  -254,  -254,
    -254,   -21,    93,  -254,  -254,  -254,    55,   102,    84,  -254,
    -254,  -254,   134,   141,   209,  -254,    84,  -254,  -254,   143,
    -254,  -254,  -254,    19,    25,    36,    43,    50,  -254,  -254,
    -254,    66,  -254,  -254,  -254,  -254,  -254,  -254,    84,  -254,
    -254,  -254,  -254,  -254,    84,  -254,  -254,  -254,  -254,  -254,
    -254,  -254,  -254,  -254,  -254,  -254,  -254,  -254,    28,  -254,
      84,  -254,    84,    96,    86,   237,    73,   197,    79,  -254,
    -254,   155,  -254,    84,  -254,  -254,  -254,   169,   171,  -254,
    -254,  -254,    84,  -254,  -254,  -254,   179,   213,   250,   209,
      93,   209,   201,   201,   209,   209,   -11,   209,   209,    93,
      93,  -254,  -254,   220,   225,    18,  -254,    13,    14,   201,
    -254,  -254,   235,   253,  -254,  -254,  -254,  -254,   260,    93,
    -254,  -254,    84,    84,    84,  -254,  -254,  -254,  -254,    84,
      84,  -254,    84,  -254,  -254,  -254,  -254,  -254,  -254,  -254,
    -254,  -254,  -254,  -254,  -254,  -254,  -254,    93,   121,  -254,
    -254,  -254,  -254,  -254,  -254,  -254,  -254,    77,    84,   113,
    -254,  -254,   147,  -254,  -254,  -254,  -254,  -254,  -254,    84,
      84,  -254,  -254,  -254,    84,  -254,    84,    84,    84,    84,
    -254,    93,  -254,   130,   229,  -254,    84,    84,  -254,   229,
      15,   -45,    15,  -254,  -254,  -254,  -254,  -254,  -254,   -64,
    -254,   -32,  -254,    81,   -64,  -254,   -62,  -254
};

/* YYDEFACT[STATE-NUM] -- Default reduction number in state STATE-NUM.
   Performed when YYTABLE does not specify something else to do.  Zero
   means the default is an error.  */
static const yytype_uint8 yydefact[] =
{
       2,     0,     1,     0,     0,    12,     0,     0,     0,     0,
       0,     0,     0,     0,     0,     0,     0,     0,     0,     0,
       0,     0,    10,    11,     3,     0,     0,     0,     0,     0,
       0,     0,     9,     0,     0,     0,     0,     0,     0,     0,
      14,    15,    16,    41,    30,    29,    38,    12,    19,    18,
      48,    34,    46,    47,    33,     0,    40,     0,    22,    12,
      39,     0,     4,     5,     6,     7,    70,     8,    90,    45,
      42,    43,    28,    27,    44,    13,    56,    52,    49,    50,
      69,     0,    51,    37,     0,    36,    89,    17,     0,     0,
       0,    22,    21,    20,    23,     0,    12,    12,    12,    12,
      12,     0,     0,    82,    66,    71,     0,     0,     0,    95,
      86,    91,     0,     0,     0,    60,     0,    53,    57,     0,
      35,    68,    73,     0,     0,     0,     0,     0,    85,    83,
      84,    79,    81,    67,    72,    88,    93,    94,     0,    87,
      92,    55,    59,    63,     0,    62,    54,    58,   126,    75,
     171,    78,   149,    77,   102,    74,   138,    76,     0,    97,
      96,    64,    61,     0,     0,     0,     0,     0,     0,    98,
      65,     0,   130,     0,   133,   123,   127,     0,     0,   180,
     182,   176,     0,   178,   168,   172,     0,     0,     0,     0,
       0,     0,     0,     0,     0,     0,     0,     0,     0,     0,
       0,   146,   150,     0,     0,     0,   108,     0,     0,     0,
      99,   103,     0,     0,   144,   142,   135,   139,     0,     0,
     125,   129,     0,     0,     0,   124,   128,   170,   174,     0,
       0,   175,     0,   169,   173,   148,   152,    32,    31,   155,
     163,   165,   153,   164,   154,   160,   159,     0,   156,   162,
     161,   166,   167,   147,   151,   101,   105,     0,     0,     0,
     107,   106,   111,   110,   109,   100,   104,   137,   141,     0,
       0,   136,   140,    80,   131,   132,   134,   181,   177,   179,
     158,     0,   115,     0,     0,   112,   145,   143,   157,     0,
      24,     0,    24,    25,    26,   114,   119,    12,   113,   117,
     116,     0,   122,     0,    12,   120,     0,   118
};

/* YYPGOTO[NTERM-NUM].  */
static const yytype_int16 yypgoto[] =
{
    -254,  -254,    22,   -38,    -7,  -254,  -254,    -2,  -253,    85,
    -121,  -109,   -18,  -254,  -254,  -254,  -254,  -254,  -254,   -27,
    -254,  -254,  -254,  -254,  -254,  -254,  -254,  -254,  -254,  -254,
    -254,  -254,  -254,  -254,  -254,  -254,  -117,  -254,  -254,  -254,
    -254,  -254,  -254,  -254,  -254,  -254,  -254,  -254,  -254,  -254,
    -254,  -254,  -254,  -254,  -254,  -254,  -254
};

/* YYDEFGOTO[NTERM-NUM].  */
static const yytype_int16 yydefgoto[] =
{
       0,     1,    24,    37,   161,    25,    26,    50,    94,    85,
     295,    74,    46,   239,    27,    77,    90,   119,   144,   162,
      28,    29,    88,   106,   131,    30,    31,    89,   112,   138,
     160,   155,   166,   212,   291,   298,   299,   303,   149,   163,
     177,   222,   224,   157,   167,   218,   270,   269,   153,   165,
     203,   151,   164,   186,   230,   232,   229
};

/* YYTABLE[YYPACT[STATE-NUM]] -- What to do in state STATE-NUM.  If
   positive, shift that token.  If negative, reduce the rule whose
   number is the opposite.  If YYTABLE_NINF, syntax error.  */
static const yytype_int16 yytable[] =
{
      42,    43,    60,    47,    33,   143,    52,    53,    57,    80,
      56,  -121,    59,   247,    55,    75,   260,   262,   302,   307,
      78,    86,   261,   263,   257,    32,    69,    70,    51,    34,
     296,   290,    54,    71,    58,   297,   292,    79,   128,    83,
     129,   130,   113,   296,   258,    75,   114,    62,    63,    64,
      65,    61,    67,    82,    87,    35,    36,    66,   123,   124,
     125,   126,   127,   293,    44,    45,   294,    22,    23,    75,
     115,   121,    76,    84,   204,    68,   205,   206,   116,    81,
     240,    95,   242,   207,   132,   245,   246,   178,   249,   250,
     158,    96,   208,   259,    97,    91,    75,   171,   179,   148,
      75,   137,    75,    98,   168,   150,   209,    99,   180,   145,
     105,   111,   118,    75,    22,    23,   152,   122,    22,    23,
      75,   100,   117,   154,   181,   172,   182,    75,   134,   136,
     156,   159,    22,    23,   140,   142,   133,   107,   173,    38,
      39,   147,   219,   183,   101,   281,   102,   103,   284,   174,
      22,    23,   282,   169,   210,   170,   305,    22,    23,    40,
      41,   104,   285,    22,    23,   289,   223,   184,    44,    45,
     108,   300,   241,    22,    23,   231,   120,   175,   248,    22,
      23,   251,   252,   135,   304,   176,   185,   202,   211,   217,
     243,   244,     0,   221,     0,   274,   109,   276,   213,   226,
     228,   273,   277,   278,     0,   279,     0,   264,   234,   236,
     214,    22,    23,    22,    23,   139,   275,   110,    22,    23,
      22,    23,   141,     0,   146,   254,   256,   215,     0,   280,
       0,     0,    22,    23,   266,   268,   220,     0,   187,     0,
     272,     0,   286,   287,     0,   188,    22,    23,    22,    23,
     225,   283,   227,   189,   190,     0,    22,    23,     0,   301,
     233,     0,   191,   288,     0,   192,   306,   170,   193,   170,
     170,   170,   170,     0,    22,    23,    48,    49,   216,   170,
     170,     0,   194,   195,    72,    73,   196,   197,     2,     3,
      22,    23,     0,   198,   235,     4,     0,    22,    23,     5,
       6,   253,    22,    23,    92,    93,   255,     0,     7,     8,
     199,   200,    22,    23,    22,    23,   265,     0,   201,     0,
       9,     0,    10,     0,    11,   237,   238,    12,     0,    13,
      22,    23,    14,     0,   267,    15,     0,    22,    23,     0,
      16,   271,    17,    18,     0,     0,     0,     0,     0,     0,
       0,     0,     0,    19,     0,     0,    20,     0,     0,     0,
       0,     0,     0,    21,     0,    22,    23
};

static const yytype_int16 yycheck[] =
{
       7,     8,    20,    10,    18,   114,    13,    14,    49,    47,
      17,    75,    19,    24,    16,    77,     3,     3,    82,    81,
      38,    59,     9,     9,     6,     3,    33,    34,    75,    43,
      75,   284,    75,    35,    75,    80,   289,    39,    59,    57,
      61,    62,     1,    75,    26,    77,     5,    25,    26,    27,
      28,    79,    30,    55,    61,    69,    70,    80,    96,    97,
      98,    99,   100,    48,    75,    76,    51,    77,    78,    77,
      29,    81,    80,    35,     1,    80,     3,     4,    37,    55,
     189,     1,   191,    10,   102,   194,   195,     1,   197,   198,
      24,    11,    19,    75,    14,    75,    77,     1,    12,    80,
      77,   108,    77,    23,    76,    80,    33,    27,    22,   116,
      88,    89,    90,    77,    77,    78,    80,    95,    77,    78,
      77,    41,    81,    80,    38,    29,    40,    77,   106,   107,
      80,   138,    77,    78,   112,   113,    81,     1,    42,    71,
      72,   119,    63,    57,    64,    24,    66,    67,    35,    53,
      77,    78,    75,   160,    81,   162,    75,    77,    78,    75,
      76,    81,    15,    77,    78,    35,   173,    81,    75,    76,
      34,   292,   190,    77,    78,   182,    91,    81,   196,    77,
      78,   199,   200,    81,   301,   163,   164,   165,   166,   167,
     192,   193,    -1,   171,    -1,   222,    60,   224,     1,   177,
     178,   219,   229,   230,    -1,   232,    -1,   209,   186,   187,
      13,    77,    78,    77,    78,    81,   223,    81,    77,    78,
      77,    78,    81,    -1,    81,   203,   204,    30,    -1,   247,
      -1,    -1,    77,    78,   212,   213,    81,    -1,     1,    -1,
     218,    -1,   269,   270,    -1,     8,    77,    78,    77,    78,
      81,   258,    81,    16,    17,    -1,    77,    78,    -1,   297,
      81,    -1,    25,   281,    -1,    28,   304,   274,    31,   276,
     277,   278,   279,    -1,    77,    78,    75,    76,    81,   286,
     287,    -1,    45,    46,    75,    76,    49,    50,     0,     1,
      77,    78,    -1,    56,    81,     7,    -1,    77,    78,    11,
      12,    81,    77,    78,    75,    76,    81,    -1,    20,    21,
      73,    74,    77,    78,    77,    78,    81,    -1,    81,    -1,
      32,    -1,    34,    -1,    36,    75,    76,    39,    -1,    41,
      77,    78,    44,    -1,    81,    47,    -1,    77,    78,    -1,
      52,    81,    54,    55,    -1,    -1,    -1,    -1,    -1,    -1,
      -1,    -1,    -1,    65,    -1,    -1,    68,    -1,    -1,    -1,
      -1,    -1,    -1,    75,    -1,    77,    78
};

/* YYSTOS[STATE-NUM] -- The symbol kind of the accessing symbol of
   state STATE-NUM.  */
static const yytype_uint8 yystos[] =
{
       0,    84,     0,     1,     7,    11,    12,    20,    21,    32,
      34,    36,    39,    41,    44,    47,    52,    54,    55,    65,
      68,    75,    77,    78,    85,    88,    89,    97,   103,   104,
     108,   109,    85,    18,    43,    69,    70,    86,    71,    72,
      75,    76,    87,    87,    75,    76,    95,    87,    75,    76,
      90,    75,    87,    87,    75,    90,    87,    49,    75,    87,
      95,    79,    85,    85,    85,    85,    80,    85,    80,    87,
      87,    90,    75,    76,    94,    77,    80,    98,    95,    90,
      86,    55,    90,    95,    35,    92,    86,    87,   105,   110,
      99,    75,    75,    76,    91,     1,    11,    14,    23,    27,
      41,    64,    66,    67,    81,    85,   106,     1,    34,    60,
      81,    85,   111,     1,     5,    29,    37,    81,    85,   100,
      92,    81,    85,    86,    86,    86,    86,    86,    59,    61,
      62,   107,    95,    81,    85,    81,    85,    87,   112,    81,
      85,    81,    85,    94,   101,    87,    81,    85,    80,   121,
      80,   134,    80,   131,    80,   114,    80,   126,    24,    87,
     113,    87,   102,   122,   135,   132,   115,   127,    76,    87,
      87,     1,    29,    42,    53,    81,    85,   123,     1,    12,
      22,    38,    40,    57,    81,    85,   136,     1,     8,    16,
      17,    25,    28,    31,    45,    46,    49,    50,    56,    73,
      74,    81,    85,   133,     1,     3,     4,    10,    19,    33,
      81,    85,   116,     1,    13,    30,    81,    85,   128,    63,
      81,    85,   124,    87,   125,    81,    85,    81,    85,   139,
     137,    87,   138,    81,    85,    81,    85,    75,    76,    96,
      94,    95,    94,    90,    90,    94,    94,    24,    95,    94,
      94,    95,    95,    81,    85,    81,    85,     6,    26,    75,
       3,     9,     3,     9,    90,    81,    85,    81,    85,   130,
     129,    81,    85,    95,   102,    87,   102,   102,   102,   102,
      95,    24,    75,    87,    35,    15,   102,   102,    95,    35,
      91,   117,    91,    48,    51,    93,    75,    80,   118,   119,
      93,    86,    82,   120,   119,    75,    86,    81
};

/* YYR1[RULE-NUM] -- Symbol kind of the left-hand side of rule RULE-NUM.  */
static const yytype_uint8 yyr1[] =
{
       0,    83,    84,    84,    84,    84,    84,    84,    84,    84,
      85,    85,    86,    86,    87,    87,    88,    89,    90,    90,
      91,    91,    92,    92,    93,    93,    93,    94,    94,    95,
      95,    96,    96,    97,    97,    97,    97,    97,    97,    97,
      97,    97,    97,    97,    97,    97,    97,    97,    97,    97,
      97,    97,    97,    98,    98,    98,    99,    99,    99,    99,
     101,   100,   100,   100,   102,   102,   103,   103,   103,   104,
     105,   105,   105,   105,   106,   106,   106,   106,   106,   106,
     106,   106,   106,   107,   107,   107,   108,   108,   108,   109,
     110,   110,   110,   110,   111,   112,   111,   113,   113,   114,
     114,   114,   115,   115,   115,   115,   116,   116,   116,   116,
     116,   116,   117,   116,   116,   116,   116,   118,   118,   119,
     119,   120,   120,   121,   121,   121,   122,   122,   122,   122,
     124,   123,   123,   125,   123,   126,   126,   126,   127,   127,
     127,   127,   129,   128,   130,   128,   131,   131,   131,   132,
     132,   132,   132,   133,   133,   133,   133,   133,   133,   133,
     133,   133,   133,   133,   133,   133,   133,   133,   134,   134,
     134,   135,   135,   135,   135,   136,   137,   136,   138,   136,
     139,   136,   136
};

/* YYR2[RULE-NUM] -- Number of symbols on the right-hand side of rule RULE-NUM.  */
static const yytype_int8 yyr2[] =
{
       0,     2,     0,     2,     3,     3,     3,     3,     3,     3,
       1,     1,     0,     2,     1,     1,     2,     3,     1,     1,
       1,     1,     0,     2,     0,     1,     1,     1,     1,     1,
       1,     1,     1,     2,     2,     5,     3,     3,     2,     2,
       2,     2,     3,     3,     3,     3,     2,     2,     2,     3,
       3,     3,     3,     3,     4,     4,     0,     2,     3,     3,
       0,     3,     2,     2,     1,     2,     4,     5,     5,     3,
       0,     2,     3,     3,     3,     3,     3,     3,     3,     2,
       6,     2,     1,     1,     1,     1,     4,     5,     5,     3,
       0,     2,     3,     3,     2,     0,     3,     1,     2,     3,
       4,     4,     0,     2,     3,     3,     2,     2,     1,     2,
       2,     2,     0,     5,     5,     3,     6,     1,     5,     1,
       3,     0,     1,     3,     4,     4,     0,     2,     3,     3,
       0,     3,     3,     0,     3,     3,     4,     4,     0,     2,
       3,     3,     0,     3,     0,     3,     3,     4,     4,     0,
       2,     3,     3,     2,     2,     2,     2,     4,     3,     2,
       2,     2,     2,     2,     2,     2,     2,     2,     3,     4,
       4,     0,     2,     3,     3,     2,     0,     3,     0,     3,
       0,     3,     1
};


enum { YYENOMEM = -2 };

#define yyerrok         (yyerrstatus = 0)
#define yyclearin       (yychar = YYEMPTY)

#define YYACCEPT        goto yyacceptlab
#define YYABORT         goto yyabortlab
#define YYERROR         goto yyerrorlab
#define YYNOMEM         goto yyexhaustedlab


#define YYRECOVERING()  (!!yyerrstatus)

#define YYBACKUP(Token, Value)                                    \
  do                                                              \
    if (yychar == YYEMPTY)                                        \
      {                                                           \
        yychar = (Token);                                         \
        yylval = (Value);                                         \
        YYPOPSTACK (yylen);                                       \
        yystate = *yyssp;                                         \
        goto yybackup;                                            \
      }                                                           \
    else                                                          \
      {                                                           \
        yyerror (YY_("syntax error: cannot back up")); \
        YYERROR;                                                  \
      }                                                           \
  while (0)

/* Backward compatibility with an undocumented macro.
   Use YYerror or YYUNDEF. */
#define YYERRCODE YYUNDEF


/* Enable debugging if requested.  */
#if YYDEBUG

# ifndef YYFPRINTF
#  include <stdio.h> /* INFRINGES ON USER NAME SPACE */
#  define YYFPRINTF fprintf
# endif

# define YYDPRINTF(Args)                        \
do {                                            \
  if (yydebug)                                  \
    YYFPRINTF Args;                             \
} while (0)




# define YY_SYMBOL_PRINT(Title, Kind, Value, Location)                    \
do {                                                                      \
  if (yydebug)                                                            \
    {                                                                     \
      YYFPRINTF (stderr, "%s ", Title);                                   \
      yy_symbol_print (stderr,                                            \
                  Kind, Value); \
      YYFPRINTF (stderr, "\n");                                           \
    }                                                                     \
} while (0)


/*-----------------------------------.
| Print this symbol's value on YYO.  |
`-----------------------------------*/

static void
yy_symbol_value_print (FILE *yyo,
                       yysymbol_kind_t yykind, YYSTYPE const * const yyvaluep)
{
  FILE *yyoutput = yyo;
  YY_USE (yyoutput);
  if (!yyvaluep)
    return;
  YY_IGNORE_MAYBE_UNINITIALIZED_BEGIN
  YY_USE (yykind);
  YY_IGNORE_MAYBE_UNINITIALIZED_END
}


/*---------------------------.
| Print this symbol on YYO.  |
`---------------------------*/

static void
yy_symbol_print (FILE *yyo,
                 yysymbol_kind_t yykind, YYSTYPE const * const yyvaluep)
{
  YYFPRINTF (yyo, "%s %s (",
             yykind < YYNTOKENS ? "token" : "nterm", yysymbol_name (yykind));

  yy_symbol_value_print (yyo, yykind, yyvaluep);
  YYFPRINTF (yyo, ")");
}

/*------------------------------------------------------------------.
| yy_stack_print -- Print the state stack from its BOTTOM up to its |
| TOP (included).                                                   |
`------------------------------------------------------------------*/

static void
yy_stack_print (yy_state_t *yybottom, yy_state_t *yytop)
{
  YYFPRINTF (stderr, "Stack now");
  for (; yybottom <= yytop; yybottom++)
    {
      int yybot = *yybottom;
      YYFPRINTF (stderr, " %d", yybot);
    }
  YYFPRINTF (stderr, "\n");
}

# define YY_STACK_PRINT(Bottom, Top)                            \
do {                                                            \
  if (yydebug)                                                  \
    yy_stack_print ((Bottom), (Top));                           \
} while (0)


/*------------------------------------------------.
| Report that the YYRULE is going to be reduced.  |
`------------------------------------------------*/

static void
yy_reduce_print (yy_state_t *yyssp, YYSTYPE *yyvsp,
                 int yyrule)
{
  int yylno = yyrline[yyrule];
  int yynrhs = yyr2[yyrule];
  int yyi;
  YYFPRINTF (stderr, "Reducing stack by rule %d (line %d):\n",
             yyrule - 1, yylno);
  /* The symbols being reduced.  */
  for (yyi = 0; yyi < yynrhs; yyi++)
    {
      YYFPRINTF (stderr, "   $%d = ", yyi + 1);
      yy_symbol_print (stderr,
                       YY_ACCESSING_SYMBOL (+yyssp[yyi + 1 - yynrhs]),
                       &yyvsp[(yyi + 1) - (yynrhs)]);
      YYFPRINTF (stderr, "\n");
    }
}

# define YY_REDUCE_PRINT(Rule)          \
do {                                    \
  if (yydebug)                          \
    yy_reduce_print (yyssp, yyvsp, Rule); \
} while (0)

/* Nonzero means print parse trace.  It is left uninitialized so that
   multiple parsers can coexist.  */
int yydebug;
#else /* !YYDEBUG */
# define YYDPRINTF(Args) ((void) 0)
# define YY_SYMBOL_PRINT(Title, Kind, Value, Location)
# define YY_STACK_PRINT(Bottom, Top)
# define YY_REDUCE_PRINT(Rule)
#endif /* !YYDEBUG */


/* YYINITDEPTH -- initial size of the parser's stacks.  */
#ifndef YYINITDEPTH
# define YYINITDEPTH 200
#endif

/* YYMAXDEPTH -- maximum size the stacks can grow to (effective only
   if the built-in stack extension method is used).

   Do not make this value too large; the results are undefined if
   YYSTACK_ALLOC_MAXIMUM < YYSTACK_BYTES (YYMAXDEPTH)
   evaluated with infinite-precision integer arithmetic.  */

#ifndef YYMAXDEPTH
# define YYMAXDEPTH 10000
#endif






/*-----------------------------------------------.
| Release the memory associated to this symbol.  |
`-----------------------------------------------*/

static void
yydestruct (const char *yymsg,
            yysymbol_kind_t yykind, YYSTYPE *yyvaluep)
{
  YY_USE (yyvaluep);
  if (!yymsg)
    yymsg = "Deleting";
  YY_SYMBOL_PRINT (yymsg, yykind, yyvaluep, yylocationp);

  YY_IGNORE_MAYBE_UNINITIALIZED_BEGIN
  YY_USE (yykind);
  YY_IGNORE_MAYBE_UNINITIALIZED_END
}


/* Lookahead token kind.  */
int yychar;

/* The semantic value of the lookahead symbol.  */
YYSTYPE yylval;
/* Number of syntax errors so far.  */
int yynerrs;




/*----------.
| yyparse.  |
`----------*/

int
yyparse (void)
{
    yy_state_fast_t yystate = 0;
    /* Number of tokens to shift before error messages enabled.  */
    int yyerrstatus = 0;

    /* Refer to the stacks through separate pointers, to allow yyoverflow
       to reallocate them elsewhere.  */

    /* Their size.  */
    YYPTRDIFF_T yystacksize = YYINITDEPTH;

    /* The state stack: array, bottom, top.  */
    yy_state_t yyssa[YYINITDEPTH];
    yy_state_t *yyss = yyssa;
    yy_state_t *yyssp = yyss;

    /* The semantic value stack: array, bottom, top.  */
    YYSTYPE yyvsa[YYINITDEPTH];
    YYSTYPE *yyvs = yyvsa;
    YYSTYPE *yyvsp = yyvs;

  int yyn;
  /* The return value of yyparse.  */
  int yyresult;
  /* Lookahead symbol kind.  */
  yysymbol_kind_t yytoken = YYSYMBOL_YYEMPTY;
  /* The variables used to return semantic value and location from the
     action routines.  */
  YYSTYPE yyval;



#define YYPOPSTACK(N)   (yyvsp -= (N), yyssp -= (N))

  /* The number of symbols on the RHS of the reduced rule.
     Keep to zero when no symbol should be popped.  */
  int yylen = 0;

  YYDPRINTF ((stderr, "Starting parse\n"));

  yychar = YYEMPTY; /* Cause a token to be read.  */

  goto yysetstate;


/*------------------------------------------------------------.
| yynewstate -- push a new state, which is found in yystate.  |
`------------------------------------------------------------*/
yynewstate:
  /* In all cases, when you get here, the value and location stacks
     have just been pushed.  So pushing a state here evens the stacks.  */
  yyssp++;


/*--------------------------------------------------------------------.
| yysetstate -- set current state (the top of the stack) to yystate.  |
`--------------------------------------------------------------------*/
yysetstate:
  YYDPRINTF ((stderr, "Entering state %d\n", yystate));
  YY_ASSERT (0 <= yystate && yystate < YYNSTATES);
  YY_IGNORE_USELESS_CAST_BEGIN
  *yyssp = YY_CAST (yy_state_t, yystate);
  YY_IGNORE_USELESS_CAST_END
  YY_STACK_PRINT (yyss, yyssp);

  if (yyss + yystacksize - 1 <= yyssp)
#if !defined yyoverflow && !defined YYSTACK_RELOCATE
    YYNOMEM;
#else
    {
      /* Get the current used size of the three stacks, in elements.  */
      YYPTRDIFF_T yysize = yyssp - yyss + 1;

# if defined yyoverflow
      {
        /* Give user a chance to reallocate the stack.  Use copies of
           these so that the &'s don't force the real ones into
           memory.  */
        yy_state_t *yyss1 = yyss;
        YYSTYPE *yyvs1 = yyvs;

        /* Each stack pointer address is followed by the size of the
           data in use in that stack, in bytes.  This used to be a
           conditional around just the two extra args, but that might
           be undefined if yyoverflow is a macro.  */
        yyoverflow (YY_("memory exhausted"),
                    &yyss1, yysize * YYSIZEOF (*yyssp),
                    &yyvs1, yysize * YYSIZEOF (*yyvsp),
                    &yystacksize);
        yyss = yyss1;
        yyvs = yyvs1;
      }
# else /* defined YYSTACK_RELOCATE */
      /* Extend the stack our own way.  */
      if (YYMAXDEPTH <= yystacksize)
        YYNOMEM;
      yystacksize *= 2;
      if (YYMAXDEPTH < yystacksize)
        yystacksize = YYMAXDEPTH;

      {
        yy_state_t *yyss1 = yyss;
        union yyalloc *yyptr =
          YY_CAST (union yyalloc *,
                   YYSTACK_ALLOC (YY_CAST (YYSIZE_T, YYSTACK_BYTES (yystacksize))));
        if (! yyptr)
          YYNOMEM;
        YYSTACK_RELOCATE (yyss_alloc, yyss);
        YYSTACK_RELOCATE (yyvs_alloc, yyvs);
#  undef YYSTACK_RELOCATE
        if (yyss1 != yyssa)
          YYSTACK_FREE (yyss1);
      }
# endif

      yyssp = yyss + yysize - 1;
      yyvsp = yyvs + yysize - 1;

      YY_IGNORE_USELESS_CAST_BEGIN
      YYDPRINTF ((stderr, "Stack size increased to %ld\n",
                  YY_CAST (long, yystacksize)));
      YY_IGNORE_USELESS_CAST_END

      if (yyss + yystacksize - 1 <= yyssp)
        YYABORT;
    }
#endif /* !defined yyoverflow && !defined YYSTACK_RELOCATE */


  if (yystate == YYFINAL)
    YYACCEPT;

  goto yybackup;


/*-----------.
| yybackup.  |
`-----------*/
yybackup:
  /* Do appropriate processing given the current state.  Read a
     lookahead token if we need one and don't already have one.  */

  /* First try to decide what to do without reference to lookahead token.  */
  yyn = yypact[yystate];
  if (yypact_value_is_default (yyn))
    goto yydefault;

  /* Not known => get a lookahead token if don't already have one.  */

  /* YYCHAR is either empty, or end-of-input, or a valid lookahead.  */
  if (yychar == YYEMPTY)
    {
      YYDPRINTF ((stderr, "Reading a token\n"));
      yychar = yylex ();
    }

  if (yychar <= YYEOF)
    {
      yychar = YYEOF;
      yytoken = YYSYMBOL_YYEOF;
      YYDPRINTF ((stderr, "Now at end of input.\n"));
    }
  else if (yychar == YYerror)
    {
      /* The scanner already issued an error message, process directly
         to error recovery.  But do not keep the error token as
         lookahead, it is too special and may lead us to an endless
         loop in error recovery. */
      yychar = YYUNDEF;
      yytoken = YYSYMBOL_YYerror;
      goto yyerrlab1;
    }
  else
    {
      yytoken = YYTRANSLATE (yychar);
      YY_SYMBOL_PRINT ("Next token is", yytoken, &yylval, &yylloc);
    }

  /* If the proper action on seeing token YYTOKEN is to reduce or to
     detect an error, take that action.  */
  yyn += yytoken;
  if (yyn < 0 || YYLAST < yyn || yycheck[yyn] != yytoken)
    goto yydefault;
  yyn = yytable[yyn];
  if (yyn <= 0)
    {
      if (yytable_value_is_error (yyn))
        goto yyerrlab;
      yyn = -yyn;
      goto yyreduce;
    }

  /* Count tokens shifted since error; after three, turn off error
     status.  */
  if (yyerrstatus)
    yyerrstatus--;

  /* Shift the lookahead token.  */
  YY_SYMBOL_PRINT ("Shifting", yytoken, &yylval, &yylloc);
  yystate = yyn;
  YY_IGNORE_MAYBE_UNINITIALIZED_BEGIN
  *++yyvsp = yylval;
  YY_IGNORE_MAYBE_UNINITIALIZED_END

  /* Discard the shifted token.  */
  yychar = YYEMPTY;
  goto yynewstate;


/*-----------------------------------------------------------.
| yydefault -- do the default action for the current state.  |
`-----------------------------------------------------------*/
yydefault:
  yyn = yydefact[yystate];
  if (yyn == 0)
    goto yyerrlab;
  goto yyreduce;


/*-----------------------------.
| yyreduce -- do a reduction.  |
`-----------------------------*/
yyreduce:
  /* yyn is the number of a rule to reduce with.  */
  yylen = yyr2[yyn];

  /* If YYLEN is nonzero, implement the default value of the action:
     '$$ = $1'.

     Otherwise, the following line sets YYVAL to garbage.
     This behavior is undocumented and Bison
     users should not rely upon it.  Assigning to YYVAL
     unconditionally makes the parser a bit smaller, and it avoids a
     GCC warning that YYVAL may be used uninitialized.  */
  yyval = yyvsp[1-yylen];


  YY_REDUCE_PRINT (yyn);
  switch (yyn)
    {
  case 9: /* grammar: grammar error sep  */
#line 169 "cmd/sandboxd/parse.y"
                                        { yyerrok; }
#line 1758 "build/cmd/sandboxd/parse.c"
    break;

  case 15: /* string: NUMBER  */
#line 181 "cmd/sandboxd/parse.y"
                                {
			char	 buf[32];

			snprintf(buf, sizeof(buf), "%lld", (long long)(yyvsp[0].v.number));
			(yyval.v.string) = strpool(buf);
		}
#line 1769 "build/cmd/sandboxd/parse.c"
    break;

  case 16: /* include: INCLUDE string  */
#line 189 "cmd/sandboxd/parse.y"
                                                { include_file((yyvsp[0].v.string)); }
#line 1775 "build/cmd/sandboxd/parse.c"
    break;

  case 17: /* varset: STRING '=' string  */
#line 192 "cmd/sandboxd/parse.y"
                                                { macro_define((yyvsp[-2].v.string), (yyvsp[0].v.string)); }
#line 1781 "build/cmd/sandboxd/parse.c"
    break;

  case 18: /* num32: NUMBER  */
#line 195 "cmd/sandboxd/parse.y"
                         {
			if ((yyvsp[0].v.number) < 0 || (yyvsp[0].v.number) > UINT32_MAX) {
				yyerror("number %lld out of range 0-%u",
				    (long long)(yyvsp[0].v.number), UINT32_MAX);
				YYERROR;
			}
			(yyval.v.number) = (yyvsp[0].v.number);
		}
#line 1794 "build/cmd/sandboxd/parse.c"
    break;

  case 19: /* num32: STRING  */
#line 203 "cmd/sandboxd/parse.y"
                         {
			yyerror("\"%s\": not a number", (yyvsp[0].v.string));
			YYERROR;
		}
#line 1803 "build/cmd/sandboxd/parse.c"
    break;

  case 20: /* port: NUMBER  */
#line 209 "cmd/sandboxd/parse.y"
                         {
			if ((yyvsp[0].v.number) < 1 || (yyvsp[0].v.number) > 65535) {
				yyerror("port %lld out of range 1-65535",
				    (long long)(yyvsp[0].v.number));
				YYERROR;
			}
			(yyval.v.number) = (yyvsp[0].v.number);
		}
#line 1816 "build/cmd/sandboxd/parse.c"
    break;

  case 21: /* port: STRING  */
#line 217 "cmd/sandboxd/parse.y"
                         {
			yyerror("port \"%s\": not a number", (yyvsp[0].v.string));
			YYERROR;
		}
#line 1825 "build/cmd/sandboxd/parse.c"
    break;

  case 22: /* optport: %empty  */
#line 223 "cmd/sandboxd/parse.y"
                                                { (yyval.v.number) = 53; }
#line 1831 "build/cmd/sandboxd/parse.c"
    break;

  case 23: /* optport: PORT port  */
#line 224 "cmd/sandboxd/parse.y"
                                                { (yyval.v.number) = (yyvsp[0].v.number); }
#line 1837 "build/cmd/sandboxd/parse.c"
    break;

  case 24: /* proto: %empty  */
#line 227 "cmd/sandboxd/parse.y"
                                                { (yyval.v.number) = IPPROTO_TCP; }
#line 1843 "build/cmd/sandboxd/parse.c"
    break;

  case 25: /* proto: TCP  */
#line 228 "cmd/sandboxd/parse.y"
                                                { (yyval.v.number) = IPPROTO_TCP; }
#line 1849 "build/cmd/sandboxd/parse.c"
    break;

  case 26: /* proto: UDP  */
#line 229 "cmd/sandboxd/parse.y"
                                                { (yyval.v.number) = IPPROTO_UDP; }
#line 1855 "build/cmd/sandboxd/parse.c"
    break;

  case 27: /* size: NUMBER  */
#line 232 "cmd/sandboxd/parse.y"
                         {
			if ((yyvsp[0].v.number) < 0) {
				yyerror("size %lld is negative", (long long)(yyvsp[0].v.number));
				YYERROR;
			}
			(yyval.v.u64) = (yyvsp[0].v.number);
		}
#line 1867 "build/cmd/sandboxd/parse.c"
    break;

  case 28: /* size: STRING  */
#line 239 "cmd/sandboxd/parse.y"
                         {
			if (parse_size((yyvsp[0].v.string), &(yyval.v.u64)) == -1)
				YYERROR;
		}
#line 1876 "build/cmd/sandboxd/parse.c"
    break;

  case 29: /* time: NUMBER  */
#line 245 "cmd/sandboxd/parse.y"
                         {
			if ((yyvsp[0].v.number) < 0 || (uint64_t)(yyvsp[0].v.number) > UINT64_MAX / 1000) {
				yyerror("time %lld out of range", (long long)(yyvsp[0].v.number));
				YYERROR;
			}
			(yyval.v.u64) = (yyvsp[0].v.number) * 1000;
		}
#line 1888 "build/cmd/sandboxd/parse.c"
    break;

  case 30: /* time: STRING  */
#line 252 "cmd/sandboxd/parse.y"
                         {
			if (parse_time((yyvsp[0].v.string), &(yyval.v.u64)) == -1)
				YYERROR;
		}
#line 1897 "build/cmd/sandboxd/parse.c"
    break;

  case 31: /* percent: NUMBER  */
#line 258 "cmd/sandboxd/parse.y"
                         {
			if ((yyvsp[0].v.number) < 0 || (yyvsp[0].v.number) > UINT32_MAX) {
				yyerror("cpu %lld%% out of range", (long long)(yyvsp[0].v.number));
				YYERROR;
			}
			(yyval.v.number) = (yyvsp[0].v.number);
		}
#line 1909 "build/cmd/sandboxd/parse.c"
    break;

  case 32: /* percent: STRING  */
#line 265 "cmd/sandboxd/parse.y"
                         {
			if (parse_percent((yyvsp[0].v.string), &(yyval.v.number)) == -1)
				YYERROR;
		}
#line 1918 "build/cmd/sandboxd/parse.c"
    break;

  case 33: /* main: SUBNET STRING  */
#line 271 "cmd/sandboxd/parse.y"
                                {
			set_prefix(&conf->global.subnet, (yyvsp[0].v.string), 0);
		}
#line 1926 "build/cmd/sandboxd/parse.c"
    break;

  case 34: /* main: RESOLVER STRING  */
#line 274 "cmd/sandboxd/parse.y"
                                  {
			set_prefix(&conf->global.resolver, (yyvsp[0].v.string), 1);
		}
#line 1934 "build/cmd/sandboxd/parse.c"
    break;

  case 35: /* main: RESOLVER STRING UPSTREAM STRING optport  */
#line 277 "cmd/sandboxd/parse.y"
                                                          {
			set_prefix(&conf->global.resolver, (yyvsp[-3].v.string), 1);
			add_upstream((yyvsp[-1].v.string), (yyvsp[0].v.number));
		}
#line 1943 "build/cmd/sandboxd/parse.c"
    break;

  case 36: /* main: UPSTREAM STRING optport  */
#line 281 "cmd/sandboxd/parse.y"
                                                { add_upstream((yyvsp[-1].v.string), (yyvsp[0].v.number)); }
#line 1949 "build/cmd/sandboxd/parse.c"
    break;

  case 37: /* main: UPSTREAM TIMEOUT time  */
#line 282 "cmd/sandboxd/parse.y"
                                        {
			if (msecs(&gbegin()->upstream_timeout_ms, (yyvsp[0].v.u64),
			    "upstream timeout") == 0)
				gcommit();
		}
#line 1959 "build/cmd/sandboxd/parse.c"
    break;

  case 38: /* main: PINFLOOR time  */
#line 287 "cmd/sandboxd/parse.y"
                                {
			if (secs(&gbegin()->pin_floor, (yyvsp[0].v.u64), "pin-floor") == 0)
				gcommit();
		}
#line 1968 "build/cmd/sandboxd/parse.c"
    break;

  case 39: /* main: PINCEILING time  */
#line 291 "cmd/sandboxd/parse.y"
                                  {
			if (secs(&gbegin()->pin_ceiling, (yyvsp[0].v.u64),
			    "pin-ceiling") == 0)
				gcommit();
		}
#line 1978 "build/cmd/sandboxd/parse.c"
    break;

  case 40: /* main: UPLINK string  */
#line 296 "cmd/sandboxd/parse.y"
                                {
			set_gstr(conf->global.uplink,
			    sizeof(conf->global.uplink), (yyvsp[0].v.string), "uplink");
		}
#line 1987 "build/cmd/sandboxd/parse.c"
    break;

  case 41: /* main: IFPREFIX string  */
#line 300 "cmd/sandboxd/parse.y"
                                  {
			set_gstr(conf->global.ifprefix,
			    sizeof(conf->global.ifprefix), (yyvsp[0].v.string),
			    "interface-prefix");
		}
#line 1997 "build/cmd/sandboxd/parse.c"
    break;

  case 42: /* main: CONTROL SOCKET string  */
#line 305 "cmd/sandboxd/parse.y"
                                        {
			set_gstr(conf->global.control_socket,
			    sizeof(conf->global.control_socket), (yyvsp[0].v.string),
			    "control socket");
		}
#line 2007 "build/cmd/sandboxd/parse.c"
    break;

  case 43: /* main: CONTROL CLIENTS num32  */
#line 310 "cmd/sandboxd/parse.y"
                                        {
			gbegin()->control_clients = (yyvsp[0].v.number);
			gcommit();
		}
#line 2016 "build/cmd/sandboxd/parse.c"
    break;

  case 44: /* main: CONTROL QUEUE size  */
#line 314 "cmd/sandboxd/parse.y"
                                     {
			gbegin()->control_queue = (yyvsp[0].v.u64);
			gcommit();
		}
#line 2025 "build/cmd/sandboxd/parse.c"
    break;

  case 45: /* main: CONTROL GROUP string  */
#line 318 "cmd/sandboxd/parse.y"
                                       {
			set_gstr(conf->global.control_group,
			    sizeof(conf->global.control_group), (yyvsp[0].v.string),
			    "control group");
		}
#line 2035 "build/cmd/sandboxd/parse.c"
    break;

  case 46: /* main: SECRETS string  */
#line 323 "cmd/sandboxd/parse.y"
                                 {
			set_gstr(conf->global.secrets_path,
			    sizeof(conf->global.secrets_path), (yyvsp[0].v.string), "secrets");
		}
#line 2044 "build/cmd/sandboxd/parse.c"
    break;

  case 47: /* main: STATEDIR string  */
#line 327 "cmd/sandboxd/parse.y"
                                  {
			set_gstr(conf->global.state_dir,
			    sizeof(conf->global.state_dir), (yyvsp[0].v.string), "state-dir");
		}
#line 2053 "build/cmd/sandboxd/parse.c"
    break;

  case 48: /* main: PREBUILD num32  */
#line 331 "cmd/sandboxd/parse.y"
                                 {
			gbegin()->prebuild = (yyvsp[0].v.number);
			gcommit();
		}
#line 2062 "build/cmd/sandboxd/parse.c"
    break;

  case 49: /* main: EXEC RETENTION time  */
#line 335 "cmd/sandboxd/parse.y"
                                      {
			if (secs(&gbegin()->exec_retention, (yyvsp[0].v.u64),
			    "exec retention") == 0)
				gcommit();
		}
#line 2072 "build/cmd/sandboxd/parse.c"
    break;

  case 50: /* main: EXEC HISTORY num32  */
#line 340 "cmd/sandboxd/parse.y"
                                     {
			gbegin()->exec_history = (yyvsp[0].v.number);
			gcommit();
		}
#line 2081 "build/cmd/sandboxd/parse.c"
    break;

  case 51: /* main: UIDRANGE num32 num32  */
#line 344 "cmd/sandboxd/parse.y"
                                       {
			gbegin()->uid_base = (yyvsp[-1].v.number);
			conf->global.uid_count = (yyvsp[0].v.number);
			gcommit();
		}
#line 2091 "build/cmd/sandboxd/parse.c"
    break;

  case 55: /* genvblock: '{' genvlist error '}'  */
#line 354 "cmd/sandboxd/parse.y"
                                                { yyerrok; }
#line 2097 "build/cmd/sandboxd/parse.c"
    break;

  case 59: /* genvlist: genvlist error sep  */
#line 360 "cmd/sandboxd/parse.y"
                                        { yyerrok; }
#line 2103 "build/cmd/sandboxd/parse.c"
    break;

  case 60: /* $@1: %empty  */
#line 363 "cmd/sandboxd/parse.y"
                       { listctx = L_SYSENV; }
#line 2109 "build/cmd/sandboxd/parse.c"
    break;

  case 62: /* genvopt: PREFIX string  */
#line 364 "cmd/sandboxd/parse.y"
                                {
			set_gstr(conf->global.env_prefix,
			    sizeof(conf->global.env_prefix), (yyvsp[0].v.string), "env prefix");
		}
#line 2118 "build/cmd/sandboxd/parse.c"
    break;

  case 63: /* genvopt: BUDGET size  */
#line 368 "cmd/sandboxd/parse.y"
                              {
			if ((yyvsp[0].v.u64) > UINT32_MAX)
				yyerror("env budget too large");
			else {
				gbegin()->env_budget = (yyvsp[0].v.u64);
				gcommit();
			}
		}
#line 2131 "build/cmd/sandboxd/parse.c"
    break;

  case 64: /* names: string  */
#line 378 "cmd/sandboxd/parse.y"
                                                { add_listitem((yyvsp[0].v.string)); }
#line 2137 "build/cmd/sandboxd/parse.c"
    break;

  case 65: /* names: names string  */
#line 379 "cmd/sandboxd/parse.y"
                                                { add_listitem((yyvsp[0].v.string)); }
#line 2143 "build/cmd/sandboxd/parse.c"
    break;

  case 66: /* policy: policyhead '{' plist '}'  */
#line 382 "cmd/sandboxd/parse.y"
                                                        { policy_end(); }
#line 2149 "build/cmd/sandboxd/parse.c"
    break;

  case 67: /* policy: policyhead '{' plist pstmt '}'  */
#line 383 "cmd/sandboxd/parse.y"
                                                        { policy_end(); }
#line 2155 "build/cmd/sandboxd/parse.c"
    break;

  case 68: /* policy: policyhead '{' plist error '}'  */
#line 384 "cmd/sandboxd/parse.y"
                                                 {
			yyerrok;
			policy_end();
		}
#line 2164 "build/cmd/sandboxd/parse.c"
    break;

  case 69: /* policyhead: POLICY string optnl  */
#line 390 "cmd/sandboxd/parse.y"
                                                { policy_begin((yyvsp[-1].v.string)); }
#line 2170 "build/cmd/sandboxd/parse.c"
    break;

  case 73: /* plist: plist error sep  */
#line 396 "cmd/sandboxd/parse.y"
                                        { yyerrok; }
#line 2176 "build/cmd/sandboxd/parse.c"
    break;

  case 74: /* pstmt: NETWORK optnl netblock  */
#line 399 "cmd/sandboxd/parse.y"
                                         {
			pbegin()->has_network = 1;
			pcommit(1);
		}
#line 2185 "build/cmd/sandboxd/parse.c"
    break;

  case 79: /* pstmt: RESTART restartmode  */
#line 407 "cmd/sandboxd/parse.y"
                                                { set_restart((yyvsp[0].v.number), NULL, NULL); }
#line 2191 "build/cmd/sandboxd/parse.c"
    break;

  case 80: /* pstmt: RESTART restartmode MAX NUMBER PER time  */
#line 408 "cmd/sandboxd/parse.y"
                                                          {
			set_restart((yyvsp[-4].v.number), &(yyvsp[-2].v.number), &(yyvsp[0].v.u64));
		}
#line 2199 "build/cmd/sandboxd/parse.c"
    break;

  case 81: /* pstmt: WATCHDOG time  */
#line 411 "cmd/sandboxd/parse.y"
                                                { set_watchdog((yyvsp[0].v.u64)); }
#line 2205 "build/cmd/sandboxd/parse.c"
    break;

  case 82: /* pstmt: KEEPWORKSPACE  */
#line 412 "cmd/sandboxd/parse.y"
                                                {
			pbegin()->keep_workspace = 1;
			pcommit(1);
		}
#line 2214 "build/cmd/sandboxd/parse.c"
    break;

  case 83: /* restartmode: NEVER  */
#line 418 "cmd/sandboxd/parse.y"
                                                { (yyval.v.number) = RESTART_NEVER; }
#line 2220 "build/cmd/sandboxd/parse.c"
    break;

  case 84: /* restartmode: ONFAILURE  */
#line 419 "cmd/sandboxd/parse.y"
                                                { (yyval.v.number) = RESTART_ON_FAILURE; }
#line 2226 "build/cmd/sandboxd/parse.c"
    break;

  case 85: /* restartmode: ALWAYS  */
#line 420 "cmd/sandboxd/parse.y"
                                                { (yyval.v.number) = RESTART_ALWAYS; }
#line 2232 "build/cmd/sandboxd/parse.c"
    break;

  case 86: /* service: servicehead '{' svclist '}'  */
#line 423 "cmd/sandboxd/parse.y"
                                                { service_end(); }
#line 2238 "build/cmd/sandboxd/parse.c"
    break;

  case 87: /* service: servicehead '{' svclist svcopt '}'  */
#line 424 "cmd/sandboxd/parse.y"
                                                        { service_end(); }
#line 2244 "build/cmd/sandboxd/parse.c"
    break;

  case 88: /* service: servicehead '{' svclist error '}'  */
#line 425 "cmd/sandboxd/parse.y"
                                                    {
			yyerrok;
			service_end();
		}
#line 2253 "build/cmd/sandboxd/parse.c"
    break;

  case 89: /* servicehead: SERVICE string optnl  */
#line 431 "cmd/sandboxd/parse.y"
                                                { service_begin((yyvsp[-1].v.string)); }
#line 2259 "build/cmd/sandboxd/parse.c"
    break;

  case 93: /* svclist: svclist error sep  */
#line 437 "cmd/sandboxd/parse.y"
                                        { yyerrok; }
#line 2265 "build/cmd/sandboxd/parse.c"
    break;

  case 94: /* svcopt: POLICY string  */
#line 440 "cmd/sandboxd/parse.y"
                                                { service_policy((yyvsp[0].v.string)); }
#line 2271 "build/cmd/sandboxd/parse.c"
    break;

  case 95: /* $@2: %empty  */
#line 441 "cmd/sandboxd/parse.y"
                          { service_command(); }
#line 2277 "build/cmd/sandboxd/parse.c"
    break;

  case 97: /* svcargs: string  */
#line 444 "cmd/sandboxd/parse.y"
                                                { service_arg((yyvsp[0].v.string)); }
#line 2283 "build/cmd/sandboxd/parse.c"
    break;

  case 98: /* svcargs: svcargs string  */
#line 445 "cmd/sandboxd/parse.y"
                                                { service_arg((yyvsp[0].v.string)); }
#line 2289 "build/cmd/sandboxd/parse.c"
    break;

  case 101: /* netblock: '{' netlist error '}'  */
#line 450 "cmd/sandboxd/parse.y"
                                        { yyerrok; }
#line 2295 "build/cmd/sandboxd/parse.c"
    break;

  case 105: /* netlist: netlist error sep  */
#line 456 "cmd/sandboxd/parse.y"
                                        { yyerrok; }
#line 2301 "build/cmd/sandboxd/parse.c"
    break;

  case 106: /* netopt: EGRESS DENY  */
#line 459 "cmd/sandboxd/parse.y"
                              {
			pbegin()->egress = EGRESS_DENY;
			pcommit(1);
		}
#line 2310 "build/cmd/sandboxd/parse.c"
    break;

  case 107: /* netopt: EGRESS ALLOW  */
#line 463 "cmd/sandboxd/parse.y"
                               {
			pbegin()->egress = EGRESS_ALLOW;
			pcommit(1);
		}
#line 2319 "build/cmd/sandboxd/parse.c"
    break;

  case 108: /* netopt: BLOCKALL  */
#line 467 "cmd/sandboxd/parse.y"
                           {
			pbegin()->block_all = 1;
			pcommit(1);
		}
#line 2328 "build/cmd/sandboxd/parse.c"
    break;

  case 109: /* netopt: PINS num32  */
#line 471 "cmd/sandboxd/parse.y"
                             {
			pbegin()->pins_max = (yyvsp[0].v.number);
			pcommit(1);
		}
#line 2337 "build/cmd/sandboxd/parse.c"
    break;

  case 110: /* netopt: INBOUND DENY  */
#line 475 "cmd/sandboxd/parse.y"
                                                { set_inbound(INB_DENY); }
#line 2343 "build/cmd/sandboxd/parse.c"
    break;

  case 111: /* netopt: INBOUND ALLOW  */
#line 476 "cmd/sandboxd/parse.y"
                                                { set_inbound(INB_ANY); }
#line 2349 "build/cmd/sandboxd/parse.c"
    break;

  case 112: /* $@3: %empty  */
#line 477 "cmd/sandboxd/parse.y"
                                     { set_inbound(INB_FROM); }
#line 2355 "build/cmd/sandboxd/parse.c"
    break;

  case 114: /* netopt: ALLOW STRING PORT port proto  */
#line 478 "cmd/sandboxd/parse.y"
                                                { add_host((yyvsp[-3].v.string), (yyvsp[-1].v.number), (yyvsp[0].v.number)); }
#line 2361 "build/cmd/sandboxd/parse.c"
    break;

  case 115: /* netopt: ALLOW CIDR STRING  */
#line 479 "cmd/sandboxd/parse.y"
                                        { add_cidr(NET_RULE_CIDR, (yyvsp[0].v.string)); }
#line 2367 "build/cmd/sandboxd/parse.c"
    break;

  case 116: /* netopt: ALLOW NAME string PORT port proto  */
#line 480 "cmd/sandboxd/parse.y"
                                                    {
			add_name((yyvsp[-3].v.string), (yyvsp[-1].v.number), (yyvsp[0].v.number));
		}
#line 2375 "build/cmd/sandboxd/parse.c"
    break;

  case 119: /* fromaddrs: STRING  */
#line 489 "cmd/sandboxd/parse.y"
                                        { add_cidr(NET_RULE_INBOUND_FROM, (yyvsp[0].v.string)); }
#line 2381 "build/cmd/sandboxd/parse.c"
    break;

  case 120: /* fromaddrs: fromaddrs optcomma STRING  */
#line 490 "cmd/sandboxd/parse.y"
                                            {
			add_cidr(NET_RULE_INBOUND_FROM, (yyvsp[0].v.string));
		}
#line 2389 "build/cmd/sandboxd/parse.c"
    break;

  case 125: /* penvblock: '{' penvlist error '}'  */
#line 501 "cmd/sandboxd/parse.y"
                                                { yyerrok; }
#line 2395 "build/cmd/sandboxd/parse.c"
    break;

  case 129: /* penvlist: penvlist error sep  */
#line 507 "cmd/sandboxd/parse.y"
                                        { yyerrok; }
#line 2401 "build/cmd/sandboxd/parse.c"
    break;

  case 130: /* $@4: %empty  */
#line 510 "cmd/sandboxd/parse.y"
                       { listctx = L_PASS; }
#line 2407 "build/cmd/sandboxd/parse.c"
    break;

  case 132: /* penvopt: SET string string  */
#line 511 "cmd/sandboxd/parse.y"
                                        { add_env(ENV_RULE_SET, (yyvsp[-1].v.string), (yyvsp[0].v.string)); }
#line 2413 "build/cmd/sandboxd/parse.c"
    break;

  case 133: /* $@5: %empty  */
#line 512 "cmd/sandboxd/parse.y"
                        { listctx = L_UNSET; }
#line 2419 "build/cmd/sandboxd/parse.c"
    break;

  case 137: /* secblock: '{' seclist error '}'  */
#line 517 "cmd/sandboxd/parse.y"
                                        { yyerrok; }
#line 2425 "build/cmd/sandboxd/parse.c"
    break;

  case 141: /* seclist: seclist error sep  */
#line 523 "cmd/sandboxd/parse.y"
                                        { yyerrok; }
#line 2431 "build/cmd/sandboxd/parse.c"
    break;

  case 142: /* $@6: %empty  */
#line 526 "cmd/sandboxd/parse.y"
                         { listctx = L_PERMIT; }
#line 2437 "build/cmd/sandboxd/parse.c"
    break;

  case 144: /* $@7: %empty  */
#line 527 "cmd/sandboxd/parse.y"
                         { listctx = L_EXPOSE; }
#line 2443 "build/cmd/sandboxd/parse.c"
    break;

  case 148: /* limblock: '{' limlist error '}'  */
#line 532 "cmd/sandboxd/parse.y"
                                        { yyerrok; }
#line 2449 "build/cmd/sandboxd/parse.c"
    break;

  case 152: /* limlist: limlist error sep  */
#line 538 "cmd/sandboxd/parse.y"
                                        { yyerrok; }
#line 2455 "build/cmd/sandboxd/parse.c"
    break;

  case 153: /* limopt: MEMORY size  */
#line 541 "cmd/sandboxd/parse.y"
                              {
			pbegin()->memory = (yyvsp[0].v.u64);
			pcommit(1);
		}
#line 2464 "build/cmd/sandboxd/parse.c"
    break;

  case 154: /* limopt: PIDS num32  */
#line 545 "cmd/sandboxd/parse.y"
                             {
			pbegin()->pids = (yyvsp[0].v.number);
			pcommit(1);
		}
#line 2473 "build/cmd/sandboxd/parse.c"
    break;

  case 155: /* limopt: CPU percent  */
#line 549 "cmd/sandboxd/parse.y"
                              {
			pbegin()->cpu_percent = (yyvsp[0].v.number);
			pcommit(1);
		}
#line 2482 "build/cmd/sandboxd/parse.c"
    break;

  case 156: /* limopt: TIMEOUT time  */
#line 553 "cmd/sandboxd/parse.y"
                                                { set_timeout(&(yyvsp[0].v.u64), NULL); }
#line 2488 "build/cmd/sandboxd/parse.c"
    break;

  case 157: /* limopt: TIMEOUT time MAX time  */
#line 554 "cmd/sandboxd/parse.y"
                                                { set_timeout(&(yyvsp[-2].v.u64), &(yyvsp[0].v.u64)); }
#line 2494 "build/cmd/sandboxd/parse.c"
    break;

  case 158: /* limopt: TIMEOUT MAX time  */
#line 555 "cmd/sandboxd/parse.y"
                                                { set_timeout(NULL, &(yyvsp[0].v.u64)); }
#line 2500 "build/cmd/sandboxd/parse.c"
    break;

  case 159: /* limopt: STDOUT size  */
#line 556 "cmd/sandboxd/parse.y"
                              {
			pbegin()->stdout_cap = (yyvsp[0].v.u64);
			pcommit(1);
		}
#line 2509 "build/cmd/sandboxd/parse.c"
    break;

  case 160: /* limopt: STDERR size  */
#line 560 "cmd/sandboxd/parse.y"
                              {
			pbegin()->stderr_cap = (yyvsp[0].v.u64);
			pcommit(1);
		}
#line 2518 "build/cmd/sandboxd/parse.c"
    break;

  case 161: /* limopt: WORKSPACE size  */
#line 564 "cmd/sandboxd/parse.y"
                                 {
			pbegin()->workspace = (yyvsp[0].v.u64);
			pcommit(1);
		}
#line 2527 "build/cmd/sandboxd/parse.c"
    break;

  case 162: /* limopt: TMP size  */
#line 568 "cmd/sandboxd/parse.y"
                           {
			pbegin()->tmp_size = (yyvsp[0].v.u64);
			pcommit(1);
		}
#line 2536 "build/cmd/sandboxd/parse.c"
    break;

  case 163: /* limopt: FSIZE size  */
#line 572 "cmd/sandboxd/parse.y"
                             {
			pbegin()->fsize = (yyvsp[0].v.u64);
			pcommit(1);
		}
#line 2545 "build/cmd/sandboxd/parse.c"
    break;

  case 164: /* limopt: NOFILE num32  */
#line 576 "cmd/sandboxd/parse.y"
                               {
			pbegin()->nofile = (yyvsp[0].v.number);
			pcommit(1);
		}
#line 2554 "build/cmd/sandboxd/parse.c"
    break;

  case 165: /* limopt: GRACE time  */
#line 580 "cmd/sandboxd/parse.y"
                             {
			if (msecs(&pbegin()->grace_ms, (yyvsp[0].v.u64), "grace") == 0)
				pcommit(1);
		}
#line 2563 "build/cmd/sandboxd/parse.c"
    break;

  case 166: /* limopt: TTL time  */
#line 584 "cmd/sandboxd/parse.y"
                           {
			if (secs(&pbegin()->ttl, (yyvsp[0].v.u64), "ttl") == 0)
				pcommit(1);
			else
				curpol->m = psaved;
		}
#line 2574 "build/cmd/sandboxd/parse.c"
    break;

  case 167: /* limopt: IDLE time  */
#line 590 "cmd/sandboxd/parse.y"
                            {
			if (secs(&pbegin()->idle, (yyvsp[0].v.u64), "idle") == 0)
				pcommit(1);
			else
				curpol->m = psaved;
		}
#line 2585 "build/cmd/sandboxd/parse.c"
    break;

  case 170: /* fsblock: '{' fslist error '}'  */
#line 600 "cmd/sandboxd/parse.y"
                                        { yyerrok; }
#line 2591 "build/cmd/sandboxd/parse.c"
    break;

  case 174: /* fslist: fslist error sep  */
#line 606 "cmd/sandboxd/parse.y"
                                        { yyerrok; }
#line 2597 "build/cmd/sandboxd/parse.c"
    break;

  case 175: /* fsopt: ROOT string  */
#line 609 "cmd/sandboxd/parse.y"
                              {
			set_pstr(curpol->m.root, sizeof(curpol->m.root), (yyvsp[0].v.string),
			    "filesystem root");
		}
#line 2606 "build/cmd/sandboxd/parse.c"
    break;

  case 176: /* $@8: %empty  */
#line 613 "cmd/sandboxd/parse.y"
                       { listctx = L_READ; }
#line 2612 "build/cmd/sandboxd/parse.c"
    break;

  case 178: /* $@9: %empty  */
#line 614 "cmd/sandboxd/parse.y"
                        { listctx = L_WRITE; }
#line 2618 "build/cmd/sandboxd/parse.c"
    break;

  case 180: /* $@10: %empty  */
#line 615 "cmd/sandboxd/parse.y"
                       { listctx = L_EXEC; }
#line 2624 "build/cmd/sandboxd/parse.c"
    break;

  case 182: /* fsopt: KEEPFAILED  */
#line 616 "cmd/sandboxd/parse.y"
                             {
			pbegin()->keep_failed = 1;
			pcommit(1);
		}
#line 2633 "build/cmd/sandboxd/parse.c"
    break;


#line 2637 "build/cmd/sandboxd/parse.c"

      default: break;
    }
  /* User semantic actions sometimes alter yychar, and that requires
     that yytoken be updated with the new translation.  We take the
     approach of translating immediately before every use of yytoken.
     One alternative is translating here after every semantic action,
     but that translation would be missed if the semantic action invokes
     YYABORT, YYACCEPT, or YYERROR immediately after altering yychar or
     if it invokes YYBACKUP.  In the case of YYABORT or YYACCEPT, an
     incorrect destructor might then be invoked immediately.  In the
     case of YYERROR or YYBACKUP, subsequent parser actions might lead
     to an incorrect destructor call or verbose syntax error message
     before the lookahead is translated.  */
  YY_SYMBOL_PRINT ("-> $$ =", YY_CAST (yysymbol_kind_t, yyr1[yyn]), &yyval, &yyloc);

  YYPOPSTACK (yylen);
  yylen = 0;

  *++yyvsp = yyval;

  /* Now 'shift' the result of the reduction.  Determine what state
     that goes to, based on the state we popped back to and the rule
     number reduced by.  */
  {
    const int yylhs = yyr1[yyn] - YYNTOKENS;
    const int yyi = yypgoto[yylhs] + *yyssp;
    yystate = (0 <= yyi && yyi <= YYLAST && yycheck[yyi] == *yyssp
               ? yytable[yyi]
               : yydefgoto[yylhs]);
  }

  goto yynewstate;


/*--------------------------------------.
| yyerrlab -- here on detecting error.  |
`--------------------------------------*/
yyerrlab:
  /* Make sure we have latest lookahead translation.  See comments at
     user semantic actions for why this is necessary.  */
  yytoken = yychar == YYEMPTY ? YYSYMBOL_YYEMPTY : YYTRANSLATE (yychar);
  /* If not already recovering from an error, report this error.  */
  if (!yyerrstatus)
    {
      ++yynerrs;
      yyerror (YY_("syntax error"));
    }

  if (yyerrstatus == 3)
    {
      /* If just tried and failed to reuse lookahead token after an
         error, discard it.  */

      if (yychar <= YYEOF)
        {
          /* Return failure if at end of input.  */
          if (yychar == YYEOF)
            YYABORT;
        }
      else
        {
          yydestruct ("Error: discarding",
                      yytoken, &yylval);
          yychar = YYEMPTY;
        }
    }

  /* Else will try to reuse lookahead token after shifting the error
     token.  */
  goto yyerrlab1;


/*---------------------------------------------------.
| yyerrorlab -- error raised explicitly by YYERROR.  |
`---------------------------------------------------*/
yyerrorlab:
  /* Pacify compilers when the user code never invokes YYERROR and the
     label yyerrorlab therefore never appears in user code.  */
  if (0)
    YYERROR;
  ++yynerrs;

  /* Do not reclaim the symbols of the rule whose action triggered
     this YYERROR.  */
  YYPOPSTACK (yylen);
  yylen = 0;
  YY_STACK_PRINT (yyss, yyssp);
  yystate = *yyssp;
  goto yyerrlab1;


/*-------------------------------------------------------------.
| yyerrlab1 -- common code for both syntax error and YYERROR.  |
`-------------------------------------------------------------*/
yyerrlab1:
  yyerrstatus = 3;      /* Each real token shifted decrements this.  */

  /* Pop stack until we find a state that shifts the error token.  */
  for (;;)
    {
      yyn = yypact[yystate];
      if (!yypact_value_is_default (yyn))
        {
          yyn += YYSYMBOL_YYerror;
          if (0 <= yyn && yyn <= YYLAST && yycheck[yyn] == YYSYMBOL_YYerror)
            {
              yyn = yytable[yyn];
              if (0 < yyn)
                break;
            }
        }

      /* Pop the current state because it cannot handle the error token.  */
      if (yyssp == yyss)
        YYABORT;


      yydestruct ("Error: popping",
                  YY_ACCESSING_SYMBOL (yystate), yyvsp);
      YYPOPSTACK (1);
      yystate = *yyssp;
      YY_STACK_PRINT (yyss, yyssp);
    }

  YY_IGNORE_MAYBE_UNINITIALIZED_BEGIN
  *++yyvsp = yylval;
  YY_IGNORE_MAYBE_UNINITIALIZED_END


  /* Shift the error token.  */
  YY_SYMBOL_PRINT ("Shifting", YY_ACCESSING_SYMBOL (yyn), yyvsp, yylsp);

  yystate = yyn;
  goto yynewstate;


/*-------------------------------------.
| yyacceptlab -- YYACCEPT comes here.  |
`-------------------------------------*/
yyacceptlab:
  yyresult = 0;
  goto yyreturnlab;


/*-----------------------------------.
| yyabortlab -- YYABORT comes here.  |
`-----------------------------------*/
yyabortlab:
  yyresult = 1;
  goto yyreturnlab;


/*-----------------------------------------------------------.
| yyexhaustedlab -- YYNOMEM (memory exhaustion) comes here.  |
`-----------------------------------------------------------*/
yyexhaustedlab:
  yyerror (YY_("memory exhausted"));
  yyresult = 2;
  goto yyreturnlab;


/*----------------------------------------------------------.
| yyreturnlab -- parsing is finished, clean up and return.  |
`----------------------------------------------------------*/
yyreturnlab:
  if (yychar != YYEMPTY)
    {
      /* Make sure we have latest lookahead translation.  See comments at
         user semantic actions for why this is necessary.  */
      yytoken = YYTRANSLATE (yychar);
      yydestruct ("Cleanup: discarding lookahead",
                  yytoken, &yylval);
    }
  /* Do not reclaim the symbols of the rule whose action triggered
     this YYABORT or YYACCEPT.  */
  YYPOPSTACK (yylen);
  YY_STACK_PRINT (yyss, yyssp);
  while (yyssp != yyss)
    {
      yydestruct ("Cleanup: popping",
                  YY_ACCESSING_SYMBOL (+*yyssp), yyvsp);
      YYPOPSTACK (1);
    }
#ifndef yyoverflow
  if (yyss != yyssa)
    YYSTACK_FREE (yyss);
#endif

  return yyresult;
}

#line 622 "cmd/sandboxd/parse.y"


struct keywords {
	const char	*k_name;
	int		 k_val;
};

/* Sorted for bsearch(3). */
static const struct keywords keywords[] = {
	{ "allow",		ALLOW },
	{ "always",		ALWAYS },
	{ "block-all",		BLOCKALL },
	{ "budget",		BUDGET },
	{ "cidr",		CIDR },
	{ "clients",		CLIENTS },
	{ "command",		COMMAND },
	{ "control",		CONTROL },
	{ "cpu",		CPU },
	{ "deny",		DENY },
	{ "egress",		EGRESS },
	{ "env",		ENV },
	{ "exec",		EXEC },
	{ "expose",		EXPOSE },
	{ "filesystem",		FILESYSTEM },
	{ "from",		FROM },
	{ "fsize",		FSIZE },
	{ "grace",		GRACE },
	{ "group",		GROUP },
	{ "history",		HISTORY },
	{ "idle",		IDLE },
	{ "inbound",		INBOUND },
	{ "include",		INCLUDE },
	{ "interface-prefix",	IFPREFIX },
	{ "keep-failed",	KEEPFAILED },
	{ "keep-workspace",	KEEPWORKSPACE },
	{ "limits",		LIMITS },
	{ "max",		MAX },
	{ "memory",		MEMORY },
	{ "name",		NAME },
	{ "network",		NETWORK },
	{ "never",		NEVER },
	{ "nofile",		NOFILE },
	{ "on-failure",		ONFAILURE },
	{ "pass",		PASS },
	{ "per",		PER },
	{ "permit",		PERMIT },
	{ "pids",		PIDS },
	{ "pin-ceiling",	PINCEILING },
	{ "pin-floor",		PINFLOOR },
	{ "pins",		PINS },
	{ "policy",		POLICY },
	{ "port",		PORT },
	{ "prebuild",		PREBUILD },
	{ "prefix",		PREFIX },
	{ "queue",		QUEUE },
	{ "read",		READ },
	{ "resolver",		RESOLVER },
	{ "restart",		RESTART },
	{ "retention",		RETENTION },
	{ "root",		ROOT },
	{ "secrets",		SECRETS },
	{ "service",		SERVICE },
	{ "set",		SET },
	{ "socket",		SOCKET },
	{ "state-dir",		STATEDIR },
	{ "stderr",		STDERR },
	{ "stdout",		STDOUT },
	{ "subnet",		SUBNET },
	{ "tcp",		TCP },
	{ "timeout",		TIMEOUT },
	{ "tmp",		TMP },
	{ "ttl",		TTL },
	{ "udp",		UDP },
	{ "uid-range",		UIDRANGE },
	{ "unset",		UNSET },
	{ "uplink",		UPLINK },
	{ "upstream",		UPSTREAM },
	{ "watchdog",		WATCHDOG },
	{ "workspace",		WORKSPACE },
	{ "write",		WRITE }
};

static int
kw_cmp(const void *k, const void *e)
{
	return (strcmp(k, ((const struct keywords *)e)->k_name));
}

static int
lookup(const char *s)
{
	const struct keywords	*p;

	p = bsearch(s, keywords, sizeof(keywords) / sizeof(keywords[0]),
	    sizeof(keywords[0]), kw_cmp);
	return (p != NULL ? p->k_val : STRING);
}

/* A syntax error names the token it stopped at. */
static void
syntax_error(void)
{
	const char	*f = file->name;
	int		 l = yylval.lineno;

	/* At top level a word may begin "name = value". */
	if (lastkind != TK_ERROR && firstkind == TK_WORD && laststmtpos <= 1) {
		parse_warnx("%s:%d: unknown keyword \"%s\"", f, l, firsttext);
		return;
	}
	switch (lastkind) {
	case TK_ERROR:		/* the lexer said why */
		break;
	case TK_KEYWORD:
		if (laststmtpos == 0)
			parse_warnx("%s:%d: \"%s\" is not allowed here", f, l,
			    lasttext);
		else
			parse_warnx("%s:%d: syntax error at \"%s\"", f, l,
			    lasttext);
		break;
	case TK_WORD:
	case TK_QUOTED:
	case TK_NUMBER:
		parse_warnx("%s:%d: syntax error at \"%s\"", f, l, lasttext);
		break;
	case TK_NEWLINE:
		parse_warnx("%s:%d: syntax error at end of line", f, l);
		break;
	case TK_EOF:
		parse_warnx("%s:%d: syntax error at end of file", f, l);
		break;
	case TK_CHAR:
		parse_warnx("%s:%d: syntax error at '%s'", f, l, lasttext);
		break;
	}
}

/* Every error is logged; the first is kept for the reload's reply. */
static void
parse_warnx(const char *fmt, ...)
{
	va_list	 ap;
	char	 msg[512];

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	log_warnx("%s", msg);
	if (firsterror[0] == '\0')
		strlcpy(firsterror, msg, sizeof(firsterror));
}

int
yyerror(const char *fmt, ...)
{
	va_list	 ap;
	char	*msg;

	errors++;
	if (strcmp(fmt, "syntax error") == 0) {
		syntax_error();
		return (0);
	}
	va_start(ap, fmt);
	if (vasprintf(&msg, fmt, ap) == -1)
		fatalx("%s: vasprintf", __func__);
	va_end(ap);
	parse_warnx("%s:%d: %s", file->name, yylval.lineno, msg);
	free(msg);
	return (0);
}

static void
lungetc(int c)
{
	int	*p;

	if (c == EOF)
		return;
	if (file->ungetpos >= file->ungetsize) {
		p = reallocarray(file->ungetbuf, file->ungetsize + 64,
		    sizeof(*p));
		if (p == NULL)
			fatal("%s", __func__);
		file->ungetbuf = p;
		file->ungetsize += 64;
	}
	file->ungetbuf[file->ungetpos++] = c;
}

/*
 * The next character: pushed back ones first, then the file.  A file's
 * last line ends with a newline even if the file does not; at the end of
 * an included file reading goes on in the file that included it.
 */
static int
lgetc(int quotec)
{
	int	 c, next;

	for (;;) {
		if (file->ungetpos > 0) {
			c = file->ungetbuf[--file->ungetpos];
			if (c != START_EXPAND && c != DONE_EXPAND)
				return (c);
			file->expanding = c == START_EXPAND;
			continue;
		}
		if ((c = getc(file->stream)) == EOF) {
			if (file->lastc != '\n')
				return (file->lastc = '\n');
			if (quotec || file == topfile || popfile() == EOF)
				return (EOF);
			continue;
		}
		file->lastc = c;
		if (c != '\\' || quotec)
			return (c);
		/* A backslash before a newline joins the lines. */
		if ((next = getc(file->stream)) == '\n') {
			file->lastc = next;
			file->lineno++;
			continue;
		}
		if (next != EOF)
			ungetc(next, file->stream);
		return (c);
	}
}

/* The lexer has reported the error; the parser recovers at ';' or '}'. */
static int
lex_error(void)
{
	lastkind = TK_ERROR;
	return (ERROR);
}

/* Skip the rest of a broken line; the newline still ends the statement. */
static int
findeol(void)
{
	int	 c;

	while ((c = lgetc(0)) != '\n' && c != EOF)
		;
	lungetc(c);
	return (lex_error());
}

/* Skip the rest of an overlong quoted string. */
static int
skip_quoted(int quotec)
{
	int	 c;

	while ((c = lgetc(quotec)) != quotec && c != '\n' && c != EOF)
		;
	if (c != quotec)
		lungetc(c);
	return (lex_error());
}

static int
expand_macro(char *buf, size_t len)
{
	char		*p = buf;
	const char	*val;
	size_t		 n;
	int		 c;

	while ((c = lgetc(0)) != EOF && c < 0x80 && (isalnum(c) || c == '_')) {
		if ((size_t)(p - buf) >= len - 1) {
			yyerror("macro name too long");
			return (-1);
		}
		*p++ = c;
	}
	lungetc(c);
	*p = '\0';
	if (p == buf) {
		yyerror("macro name expected after '$'");
		return (-1);
	}
	if ((val = symget(buf)) == NULL) {
		yyerror("macro \"%s\" not defined", buf);
		return (-1);
	}
	lungetc(DONE_EXPAND);
	for (n = strlen(val); n > 0; n--)
		lungetc((unsigned char)val[n - 1]);
	lungetc(START_EXPAND);
	return (0);
}

/*
 * Token strings live until the parse ends: actions and error recovery
 * need not track who frees them.
 */
struct pstr {
	struct pstr	*next;
	char		 s[];
};
static struct pstr	*strings;

static char *
strpool(const char *s)
{
	struct pstr	*p;
	size_t		 n = strlen(s) + 1;

	if ((p = malloc(sizeof(*p) + n)) == NULL)
		fatal("%s", __func__);
	memcpy(p->s, s, n);
	p->next = strings;
	strings = p;
	return (p->s);
}

static void
strpool_free(void)
{
	struct pstr	*p;

	while ((p = strings) != NULL) {
		strings = p->next;
		free(p);
	}
}

static int
lex_string(char *buf, enum tokkind kind)
{
	lastkind = kind;
	strlcpy(lasttext, buf, sizeof(lasttext));
	yylval.v.string = strpool(buf);
	return (STRING);
}

/* Escapes: \" \' \\ \n \t, and backslash-newline to go on. */
static int
lex_quoted(int quotec, char *buf, size_t len)
{
	char	*p = buf;
	int	 c, next;

	for (;;) {
		if ((c = lgetc(quotec)) == EOF || c == '\n') {
			yyerror("unterminated quoted string");
			lungetc(c);
			return (findeol());
		}
		if (c == quotec)
			break;
		if (c == '\0') {
			yyerror("NUL byte in quoted string");
			return (findeol());
		}
		if (c == '\\') {
			switch (next = lgetc(quotec)) {
			case '\n':
				if (!file->expanding)
					file->lineno++;
				continue;
			case 'n':
				c = '\n';
				break;
			case 't':
				c = '\t';
				break;
			case '\\':
			case '"':
			case '\'':
				c = next;
				break;
			default:
				lungetc(next);
			}
		}
		if ((size_t)(p - buf) >= len - 1) {
			yyerror("string too long");
			return (skip_quoted(quotec));
		}
		*p++ = c;
	}
	*p = '\0';
	return (lex_string(buf, TK_QUOTED));
}

static int
ends_number(int c)
{
	return (c == EOF || c == ' ' || c == '\t' || c == '\r' || c == '\n' ||
	    (c != '\0' && strchr(";,{}=#", c) != NULL));
}

static int
in_word(int c)
{
	if (c == EOF || c >= 0x80)
		return (0);
	if (isalnum(c))
		return (1);
	return (ispunct(c) && strchr("(){}!=#,;\"'", c) == NULL);
}

static int
word_start(int c)
{
	return (c != EOF && c < 0x80 &&
	    (isalnum(c) || (c != '\0' && strchr(":_*/.", c) != NULL)));
}

static int
skip_word(void)
{
	int	 c;

	while (in_word(c = lgetc(0)))
		;
	lungetc(c);
	return (lex_error());
}

/* A number, or -1 with everything pushed back if it is a word. */
static int
lex_number(int c, char *buf, size_t len)
{
	char		*p = buf;
	const char	*errstr;

	do {
		if ((size_t)(p - buf) >= len - 1) {
			yyerror("number too long");
			return (skip_word());
		}
		*p++ = c;
	} while ((c = lgetc(0)) != EOF && c < 0x80 && isdigit(c));
	lungetc(c);
	*p = '\0';
	if (strcmp(buf, "-") != 0 && ends_number(c)) {
		strlcpy(lasttext, buf, sizeof(lasttext));
		lastkind = TK_NUMBER;
		yylval.v.number = strtonum(buf, LLONG_MIN, LLONG_MAX, &errstr);
		if (errstr != NULL) {
			yyerror("number %s is %s", buf, errstr);
			return (lex_error());
		}
		return (NUMBER);
	}
	while (p > buf)
		lungetc((unsigned char)*--p);
	return (-1);
}

static int
lex_word(int c, char *buf, size_t len)
{
	char	*p = buf;
	int	 tok;

	do {
		if ((size_t)(p - buf) >= len - 1) {
			yyerror("string too long");
			return (skip_word());
		}
		*p++ = c;
	} while (in_word(c = lgetc(0)));
	lungetc(c);
	*p = '\0';
	if ((tok = lookup(buf)) == STRING)
		return (lex_string(buf, TK_WORD));
	strlcpy(lasttext, buf, sizeof(lasttext));
	lastkind = TK_KEYWORD;
	return (tok);
}

static int
lex_token(void)
{
	char	 buf[LEX_BUFSIZE];
	int	 c, tok;

top:
	while ((c = lgetc(0)) == ' ' || c == '\t' || c == '\r')
		;
	yylval.lineno = file->lineno;
	if (c == '#')
		while ((c = lgetc(0)) != '\n' && c != EOF)
			;
	if (c == '$' && !file->expanding) {
		if (expand_macro(buf, sizeof(buf)) == -1)
			return (lex_error());
		goto top;
	}
	if (c == '"' || c == '\'')
		return (lex_quoted(c, buf, sizeof(buf)));
	if (c == '-' || (c != EOF && c < 0x80 && isdigit(c))) {
		if ((tok = lex_number(c, buf, sizeof(buf))) != -1)
			return (tok);
		c = lgetc(0);
	}
	if (word_start(c))
		return (lex_word(c, buf, sizeof(buf)));
	if (c == '\n' && !file->expanding)
		file->lineno++;
	if (c == EOF) {
		lastkind = TK_EOF;
		return (0);
	}
	if (c == '\0') {
		yyerror("NUL byte in input");
		return (findeol());
	}
	lastkind = c == '\n' ? TK_NEWLINE : TK_CHAR;
	snprintf(lasttext, sizeof(lasttext), c < 0x20 || c >= 0x7f ?
	    "\\x%02x" : "%c", c);
	return (c);
}

/* Remember how statements begin, for error messages. */
int
yylex(void)
{
	int	 tok;

	tok = lex_token();
	if ((laststmtpos = stmtpos) == 0) {
		firstkind = lastkind;
		strlcpy(firsttext, lasttext, sizeof(firsttext));
	}
	if (tok == '\n' || tok == ';' || tok == '{' || tok == '}')
		stmtpos = 0;
	else
		stmtpos++;
	return (tok);
}

static struct file *
pushfile(const char *path, char *err, size_t errlen)
{
	struct file	*nf, *f;
	struct stat	 st;
	FILE		*fp;

	if ((fp = fopen(path, "r")) == NULL) {
		snprintf(err, errlen, "%s", strerror(errno));
		return (NULL);
	}
	if (fstat(fileno(fp), &st) == -1 || !S_ISREG(st.st_mode)) {
		snprintf(err, errlen, "not a regular file");
		fclose(fp);
		return (NULL);
	}
	TAILQ_FOREACH(f, &files, entry)
		if (f->dev == st.st_dev && f->ino == st.st_ino) {
			snprintf(err, errlen, "include loop");
			fclose(fp);
			return (NULL);
		}
	if ((nf = calloc(1, sizeof(*nf))) == NULL ||
	    (nf->name = strdup(path)) == NULL)
		fatal("%s", __func__);
	nf->stream = fp;
	nf->dev = st.st_dev;
	nf->ino = st.st_ino;
	/* An include starts with a pushed-back newline: see include_file. */
	nf->lineno = TAILQ_EMPTY(&files) ? 1 : 0;
	nf->lastc = '\n';
	TAILQ_INSERT_TAIL(&files, nf, entry);
	return (nf);
}

static int
popfile(void)
{
	struct file	*prev;

	prev = TAILQ_PREV(file, files, entry);
	TAILQ_REMOVE(&files, file, entry);
	fclose(file->stream);
	free(file->name);
	free(file->ungetbuf);
	free(file);
	file = prev;
	return (file != NULL ? 0 : EOF);
}

/* Relative includes are found beside the file that includes them. */
static void
include_file(const char *name)
{
	struct file	*nf;
	const char	*slash;
	char		*path, err[256];
	int		 depth = 0;

	TAILQ_FOREACH(nf, &files, entry)
		depth++;
	slash = strrchr(file->name, '/');
	if (name[0] == '/' || slash == NULL)
		path = strdup(name);
	else if (asprintf(&path, "%.*s/%s", (int)(slash - file->name),
	    file->name, name) == -1)
		path = NULL;
	if (path == NULL)
		fatal("%s", __func__);
	if (depth > MAX_INCLUDE_DEPTH)
		yyerror("include \"%s\": nested more than %d deep", name,
		    MAX_INCLUDE_DEPTH);
	else if ((nf = pushfile(path, err, sizeof(err))) == NULL)
		yyerror("include \"%s\": %s", path, err);
	else {
		file = nf;
		lungetc('\n');
	}
	free(path);
}

static int
macro_name_ok(const char *s)
{
	if (*s == '\0')
		return (0);
	for (; *s != '\0'; s++)
		if (!isalnum((unsigned char)*s) && *s != '_')
			return (0);
	return (1);
}

static void
macro_define(const char *name, const char *val)
{
	if (!macro_name_ok(name))
		yyerror("macro name \"%s\": only letters, digits and '_' "
		    "allowed", name);
	else if (symset(name, val, 0) == -1)
		fatal("%s", __func__);
}

static int
symset(const char *nam, const char *val, int persist)
{
	struct sym	*sym;

	TAILQ_FOREACH(sym, &symhead, entry)
		if (strcmp(nam, sym->nam) == 0)
			break;
	if (sym != NULL) {
		if (sym->persist)
			return (0);
		TAILQ_REMOVE(&symhead, sym, entry);
		free(sym->nam);
		free(sym->val);
		free(sym);
	}
	if ((sym = calloc(1, sizeof(*sym))) == NULL)
		return (-1);
	if ((sym->nam = strdup(nam)) == NULL ||
	    (sym->val = strdup(val)) == NULL) {
		free(sym->nam);
		free(sym);
		return (-1);
	}
	sym->persist = persist;
	TAILQ_INSERT_TAIL(&symhead, sym, entry);
	return (0);
}

/* -D name=value: overrides a definition of the same name in the file. */
int
cmdline_symset(char *s)
{
	char	*val, *nam;
	int	 ret;

	if ((val = strchr(s, '=')) == NULL)
		return (-1);
	if ((nam = strndup(s, val - s)) == NULL)
		return (-1);
	ret = macro_name_ok(nam) ? symset(nam, val + 1, 1) : -1;
	free(nam);
	return (ret);
}

static char *
symget(const char *nam)
{
	struct sym	*sym;

	TAILQ_FOREACH(sym, &symhead, entry)
		if (strcmp(nam, sym->nam) == 0)
			return (sym->val);
	return (NULL);
}

static void
symclear(void)
{
	struct sym	*sym, *next;

	for (sym = TAILQ_FIRST(&symhead); sym != NULL; sym = next) {
		next = TAILQ_NEXT(sym, entry);
		if (sym->persist)
			continue;
		TAILQ_REMOVE(&symhead, sym, entry);
		free(sym->nam);
		free(sym->val);
		free(sym);
	}
}

/*
 * Statements change the config in place; a change that fails its
 * check is reported on its own line and undone, so that later
 * statements are checked against a valid config.
 */
static struct conf_global_msg *
gbegin(void)
{
	gsaved = conf->global;
	return (&conf->global);
}

static int
gcommit(void)
{
	char	 buf[ERRBUF_SIZE];

	if (conf_check_global(&conf->global, buf, sizeof(buf)) == -1) {
		yyerror("%s", buf);
		conf->global = gsaved;
		return (-1);
	}
	return (0);
}

static struct policy_msg *
pbegin(void)
{
	psaved = curpol->m;
	return (&curpol->m);
}

/* Inside the block, timeout and its max may come in either order. */
static int
pcommit(int relax)
{
	struct policy_msg	 p = curpol->m;
	char			 buf[ERRBUF_SIZE];

	if (relax && p.timeout > p.timeout_max)
		p.timeout = p.timeout_max;
	if (conf_check_policy(&p, buf, sizeof(buf)) == -1) {
		yyerror("%s", buf);
		curpol->m = psaved;
		return (-1);
	}
	return (0);
}

static int
copystr(char *dst, size_t dsz, const char *src, const char *what)
{
	if (strlen(src) >= dsz) {
		yyerror("%s \"%.32s...\": too long, at most %zu characters",
		    what, src, dsz - 1);
		return (-1);
	}
	strlcpy(dst, src, dsz);
	return (0);
}

static void
set_gstr(char *field, size_t len, const char *s, const char *what)
{
	gbegin();
	if (copystr(field, len, s, what) == 0)
		gcommit();
}

static void
set_pstr(char *field, size_t len, const char *s, const char *what)
{
	pbegin();
	if (copystr(field, len, s, what) == 0)
		pcommit(1);
}

static int
parse_u64(const char *s, uint64_t *v, char **ep)
{
	if (!isdigit((unsigned char)*s))
		return (-1);
	errno = 0;
	*v = strtoull(s, ep, 10);
	return (errno == ERANGE ? -1 : 0);
}

/* Bytes, or K, M, G, T: powers of 1024. */
static int
parse_size(const char *s, uint64_t *out)
{
	const char	*units = "KMGT", *u;
	uint64_t	 v, mul = 1;
	char		*ep;

	if (parse_u64(s, &v, &ep) == -1 || (*ep != '\0' && (ep[1] != '\0' ||
	    (u = strchr(units, toupper((unsigned char)*ep))) == NULL))) {
		yyerror("\"%s\": bad size, want a number with an optional "
		    "K, M, G or T suffix", s);
		return (-1);
	}
	if (*ep != '\0')
		mul = 1ULL << (10 * (u - units + 1));
	if (v > UINT64_MAX / mul) {
		yyerror("\"%s\": size too large", s);
		return (-1);
	}
	*out = v * mul;
	return (0);
}

/* Milliseconds from seconds, or from ms, s, m or h (lib/duration.c). */
static int
parse_time(const char *s, uint64_t *ms)
{
	if (duration_parse(s, ms) == 0)
		return (0);
	if (errno == ERANGE)
		yyerror("\"%s\": time too large", s);
	else
		yyerror("\"%s\": bad time, want a number with an optional "
		    "ms, s, m or h suffix", s);
	return (-1);
}

static int
parse_percent(const char *s, int64_t *out)
{
	uint64_t	 v;
	char		*ep;

	if (parse_u64(s, &v, &ep) == -1 || strcmp(ep, "%") != 0 ||
	    v > UINT32_MAX) {
		yyerror("\"%s\": bad percentage", s);
		return (-1);
	}
	*out = v;
	return (0);
}

static int
secs(uint32_t *field, uint64_t ms, const char *what)
{
	if (ms % 1000 != 0) {
		yyerror("%s: sub-second values are not allowed", what);
		return (-1);
	}
	if (ms / 1000 > UINT32_MAX) {
		yyerror("%s: too large", what);
		return (-1);
	}
	*field = ms / 1000;
	return (0);
}

static int
msecs(uint32_t *field, uint64_t ms, const char *what)
{
	if (ms > UINT32_MAX) {
		yyerror("%s: too large", what);
		return (-1);
	}
	*field = ms;
	return (0);
}

static void
set_timeout(const uint64_t *t, const uint64_t *max)
{
	struct policy_msg	*p = pbegin();

	if ((t != NULL && secs(&p->timeout, *t, "timeout") == -1) ||
	    (max != NULL && secs(&p->timeout_max, *max, "timeout max") == -1)) {
		curpol->m = psaved;
		return;
	}
	pcommit(t == NULL || max == NULL);
}

/* Addresses are numeric; a prefix length is only taken where asked. */
static int
parse_prefix(const char *s, struct conf_prefix *p, int host)
{
	char		 addr[INET6_ADDRSTRLEN];
	const char	*slash, *errstr = NULL;
	size_t		 n;

	memset(p, 0, sizeof(*p));
	slash = strchr(s, '/');
	n = slash != NULL ? (size_t)(slash - s) : strlen(s);
	if (host && slash != NULL) {
		yyerror("\"%s\": an address without /length is required", s);
		return (-1);
	}
	if (n >= sizeof(addr))
		goto bad;
	memcpy(addr, s, n);
	addr[n] = '\0';
	if (inet_pton(AF_INET, addr, &p->addr.v4) == 1)
		p->af = AF_INET;
	else if (inet_pton(AF_INET6, addr, &p->addr.v6) == 1)
		p->af = AF_INET6;
	else
		goto bad;
	p->len = p->af == AF_INET ? 32 : 128;
	if (slash != NULL)
		p->len = strtonum(slash + 1, 0, p->len, &errstr);
	if (errstr == NULL)
		return (0);
 bad:
	yyerror("\"%s\": not an IPv4 or IPv6 address%s", s,
	    host ? "" : " or prefix");
	return (-1);
}

static void
set_prefix(struct conf_prefix *field, const char *s, int host)
{
	struct conf_prefix	 p;

	if (parse_prefix(s, &p, host) == 0) {
		gbegin();
		*field = p;
		gcommit();
	}
}

static void
add_upstream(const char *s, int64_t port)
{
	struct conf_upstream	*u;
	struct upstream_msg	 m;
	char			 buf[ERRBUF_SIZE];

	memset(&m, 0, sizeof(m));
	m.port = port;
	if (parse_prefix(s, &m.addr, 1) == -1)
		return;
	if (conf_check_upstream(&m, buf, sizeof(buf)) == -1) {
		yyerror("%s", buf);
		return;
	}
	TAILQ_FOREACH(u, &conf->upstreams, entry)
		if (memcmp(&u->m, &m, sizeof(m)) == 0) {
			yyerror("upstream %s port %u given twice", s, m.port);
			return;
		}
	if ((u = calloc(1, sizeof(*u))) == NULL)
		fatal("%s", __func__);
	memcpy(&u->m, &m, sizeof(m));
	TAILQ_INSERT_TAIL(&conf->upstreams, u, entry);
}

static int
policy_name(struct policy_msg *p, const char *name)
{
	char	 buf[ERRBUF_SIZE];

	if (copystr(p->name, sizeof(p->name), name, "policy name") == -1)
		return (-1);
	if (conf_check_policy(p, buf, sizeof(buf)) == -1) {
		yyerror("%s", buf);
		return (-1);
	}
	if (conf_policy_find(conf, p->name) != NULL) {
		yyerror("policy \"%s\" defined twice", name);
		return (-1);
	}
	return (0);
}

/* A policy that cannot be kept is still parsed for its errors. */
static void
policy_begin(const char *name)
{
	struct conf_policy	*p;

	if (curpol != NULL && curdetached)
		free(curpol);
	if ((p = calloc(1, sizeof(*p))) == NULL)
		fatal("%s", __func__);
	conf_policy_defaults(&p->m, NULL);
	curpol = p;
	curinbound = INB_NONE;
	curdetached = policy_name(&p->m, name) == -1;
	if (curdetached)
		strlcpy(p->m.name, "invalid", sizeof(p->m.name));
	else
		TAILQ_INSERT_TAIL(&conf->policies, p, entry);
}

static void
check_exposed(void)
{
	struct conf_secret_rule	*e, *r;

	TAILQ_FOREACH(e, &conf->secret_rules, entry) {
		if (e->m.type != SECRET_RULE_EXPOSE ||
		    strcmp(e->m.policy, curpol->m.name) != 0)
			continue;
		TAILQ_FOREACH(r, &conf->secret_rules, entry)
			if (r->m.type == SECRET_RULE_PERMIT &&
			    strcmp(r->m.policy, e->m.policy) == 0 &&
			    strcmp(r->m.name, e->m.name) == 0)
				break;
		if (r == NULL)
			yyerror("policy \"%s\": secret \"%s\" is exposed but "
			    "not permitted", e->m.policy, e->m.name);
	}
}

static void
policy_end(void)
{
	char	 buf[ERRBUF_SIZE];

	if (conf_check_policy(&curpol->m, buf, sizeof(buf)) == -1)
		yyerror("%s", buf);
	if (!curdetached)
		check_exposed();
	else
		free(curpol);
	curpol = NULL;
}

static void
set_restart(int mode, const int64_t *max, const uint64_t *window)
{
	struct policy_msg	*p = pbegin();

	p->restart = mode;
	if (max != NULL) {
		if (*max < 0 || *max > CONF_RESTART_MAX) {
			yyerror("restart max %lld out of range 0-%u",
			    (long long)*max, CONF_RESTART_MAX);
			curpol->m = psaved;
			return;
		}
		p->restart_max = *max;
		if (secs(&p->restart_window, *window, "restart per") == -1) {
			curpol->m = psaved;
			return;
		}
	}
	pcommit(1);
}

static void
set_watchdog(uint64_t ms)
{
	if (secs(&pbegin()->watchdog, ms, "watchdog") == -1)
		curpol->m = psaved;
	else
		pcommit(1);
}

/*
 * service "name" { policy "p"; command "a" "b" }.  A command of one
 * string is split at blanks; of several strings, each is one argument.
 * Neither goes through a shell.
 */
static struct conf_service	*cursvc;
static int			 cursvcstrings;

static void
service_begin(const char *name)
{
	/* A block the parser gave up on never reached service_end. */
	free(cursvc);
	if ((cursvc = calloc(1, sizeof(*cursvc))) == NULL)
		fatal("%s", __func__);
	cursvcstrings = 0;
	copystr(cursvc->m.name, sizeof(cursvc->m.name), name, "service name");
}

static void
service_policy(const char *name)
{
	copystr(cursvc->m.policy, sizeof(cursvc->m.policy), name,
	    "service policy");
}

static void
service_put(const char *a, size_t n)
{
	struct service_msg	*m = &cursvc->m;

	if (n + 1 > sizeof(m->args) - m->args_len) {
		yyerror("service \"%s\": command too long, %zu bytes at most",
		    m->name, sizeof(m->args));
		return;
	}
	memcpy(m->args + m->args_len, a, n);
	m->args[m->args_len + n] = '\0';
	m->args_len += n + 1;
	m->argc++;
}

static void
service_command(void)
{
	if (cursvc->m.argc != 0)
		yyerror("service \"%s\": command given twice",
		    cursvc->m.name);
	cursvc->m.argc = cursvc->m.args_len = 0;
	cursvcstrings = 0;
}

static void
service_arg(const char *a)
{
	cursvcstrings++;
	service_put(a, strlen(a));
}

/* One string with blanks: its words, now that we know it is alone. */
static void
service_split(struct service_msg *m)
{
	char	 one[CONF_SERVICE_ARGS], *w, *save;

	strlcpy(one, m->args, sizeof(one));
	m->argc = m->args_len = 0;
	memset(m->args, 0, sizeof(m->args));
	for (w = strtok_r(one, " \t", &save); w != NULL;
	    w = strtok_r(NULL, " \t", &save))
		service_put(w, strlen(w));
}

static void
service_end(void)
{
	struct conf_service	*s;
	char			 buf[ERRBUF_SIZE];
	int			 n = 0;

	if (cursvcstrings == 1)
		service_split(&cursvc->m);
	TAILQ_FOREACH(s, &conf->services, entry)
		if (n++, strcmp(s->m.name, cursvc->m.name) == 0) {
			yyerror("service \"%s\" defined twice",
			    cursvc->m.name);
			break;
		}
	if (s == NULL && conf_check_service(&cursvc->m, buf,
	    sizeof(buf)) == -1)
		yyerror("%s", buf);
	if (s == NULL && n >= CONF_SERVICES_MAX)
		yyerror("more than %d services", CONF_SERVICES_MAX);
	TAILQ_INSERT_TAIL(&conf->services, cursvc, entry);
	cursvc = NULL;
}

/* Policies may come after the services that name them. */
static void
services_check(struct sandboxd_conf *c, const char *topname)
{
	struct conf_service	*s;

	/* "" is "default", which is there by now or will be. */
	TAILQ_FOREACH(s, &c->services, entry)
		if (s->m.policy[0] != '\0' &&
		    conf_policy_find(c, s->m.policy) == NULL) {
			parse_warnx("%s: service \"%s\": no such policy \"%s\"",
			    topname, s->m.name, s->m.policy);
			errors++;
		}
}

static void
set_inbound(enum inbound_seen kind)
{
	if (curinbound != INB_NONE && curinbound != kind) {
		yyerror("conflicting inbound statements in policy \"%s\"",
		    curpol->m.name);
		return;
	}
	curinbound = kind;
	pbegin()->inbound = kind == INB_DENY ? INBOUND_DENY : INBOUND_ALLOW;
	pcommit(1);
}

static void
add_net(struct net_rule_msg *m)
{
	struct conf_net_rule	*r;
	char			 buf[ERRBUF_SIZE];

	strlcpy(m->policy, curpol->m.name, sizeof(m->policy));
	if (conf_check_net_rule(m, buf, sizeof(buf)) == -1) {
		yyerror("%s", buf);
		return;
	}
	TAILQ_FOREACH(r, &conf->net_rules, entry)
		if (!curdetached && memcmp(&r->m, m, sizeof(*m)) == 0) {
			yyerror("rule given twice in policy \"%s\"",
			    m->policy);
			return;
		}
	if ((r = calloc(1, sizeof(*r))) == NULL)
		fatal("%s", __func__);
	memcpy(&r->m, m, sizeof(*m));
	TAILQ_INSERT_TAIL(&conf->net_rules, r, entry);
}

static void
add_host(const char *s, int64_t port, int64_t proto)
{
	struct net_rule_msg	 m;

	memset(&m, 0, sizeof(m));
	m.type = NET_RULE_HOST;
	m.port = port;
	m.proto = proto;
	if (parse_prefix(s, &m.prefix, 1) == 0)
		add_net(&m);
}

static void
add_cidr(uint32_t type, const char *s)
{
	struct net_rule_msg	 m;

	memset(&m, 0, sizeof(m));
	m.type = type;
	if (parse_prefix(s, &m.prefix, 0) == 0)
		add_net(&m);
}

/* Names are stored lowercase and without a trailing dot. */
static void
add_name(const char *s, int64_t port, int64_t proto)
{
	struct net_rule_msg	 m;
	char			 buf[ERRBUF_SIZE];
	size_t			 i, n = strlen(s);

	memset(&m, 0, sizeof(m));
	m.type = NET_RULE_NAME;
	m.port = port;
	m.proto = proto;
	if (n > 1 && s[n - 1] == '.')
		n--;
	if (n >= sizeof(m.name))
		yyerror("allow name \"%.32s...\": too long", s);
	else {
		for (i = 0; i < n; i++)
			m.name[i] = tolower((unsigned char)s[i]);
		if (conf_check_dnsname(m.name, buf, sizeof(buf)) == -1)
			yyerror("allow name \"%s\": %s", s, buf);
		else
			add_net(&m);
	}
}

static void
add_env_msg(struct env_rule_msg *m)
{
	struct conf_env_rule	*r;
	char			 buf[ERRBUF_SIZE];

	if (conf_check_env_rule(m, buf, sizeof(buf)) == -1) {
		yyerror("%s", buf);
		return;
	}
	TAILQ_FOREACH(r, &conf->env_rules, entry)
		if ((r->m.type == ENV_RULE_SYSTEM) ==
		    (m->type == ENV_RULE_SYSTEM) && !curdetached &&
		    strcmp(r->m.policy, m->policy) == 0 &&
		    strcmp(r->m.key, m->key) == 0) {
			yyerror("env \"%s\": given twice%s%s%s", m->key,
			    *m->policy ? " in policy \"" : "", m->policy,
			    *m->policy ? "\"" : "");
			return;
		}
	if ((r = calloc(1, sizeof(*r))) == NULL)
		fatal("%s", __func__);
	memcpy(&r->m, m, sizeof(*m));
	TAILQ_INSERT_TAIL(&conf->env_rules, r, entry);
}

static void
add_env(uint32_t type, const char *key, const char *val)
{
	struct env_rule_msg	 m;

	memset(&m, 0, sizeof(m));
	m.type = type;
	if (type != ENV_RULE_SYSTEM)
		strlcpy(m.policy, curpol->m.name, sizeof(m.policy));
	if (copystr(m.key, sizeof(m.key), key, "env key") == 0 &&
	    (val == NULL ||
	    copystr(m.value, sizeof(m.value), val, "env value") == 0))
		add_env_msg(&m);
}

static void
add_secret(uint32_t type, const char *name)
{
	struct conf_secret_rule	*r;
	struct secret_rule_msg	 m;
	char			 buf[ERRBUF_SIZE];

	memset(&m, 0, sizeof(m));
	m.type = type;
	strlcpy(m.policy, curpol->m.name, sizeof(m.policy));
	if (copystr(m.name, sizeof(m.name), name, "secret") == -1)
		return;
	if (conf_check_secret_rule(&m, buf, sizeof(buf)) == -1) {
		yyerror("%s", buf);
		return;
	}
	TAILQ_FOREACH(r, &conf->secret_rules, entry)
		if (!curdetached && memcmp(&r->m, &m, sizeof(m)) == 0) {
			yyerror("secret \"%s\": given twice", name);
			return;
		}
	if ((r = calloc(1, sizeof(*r))) == NULL)
		fatal("%s", __func__);
	memcpy(&r->m, &m, sizeof(m));
	TAILQ_INSERT_TAIL(&conf->secret_rules, r, entry);
}

static void
add_fs(uint32_t type, const char *path)
{
	struct conf_fs_rule	*r;
	struct fs_rule_msg	 m;
	char			 buf[ERRBUF_SIZE];

	memset(&m, 0, sizeof(m));
	m.type = type;
	strlcpy(m.policy, curpol->m.name, sizeof(m.policy));
	if (copystr(m.path, sizeof(m.path), path, "filesystem path") == -1)
		return;
	if (conf_check_fs_rule(&m, buf, sizeof(buf)) == -1) {
		yyerror("%s", buf);
		return;
	}
	TAILQ_FOREACH(r, &conf->fs_rules, entry)
		if (!curdetached && memcmp(&r->m, &m, sizeof(m)) == 0) {
			yyerror("path \"%s\": given twice", path);
			return;
		}
	if ((r = calloc(1, sizeof(*r))) == NULL)
		fatal("%s", __func__);
	memcpy(&r->m, &m, sizeof(m));
	TAILQ_INSERT_TAIL(&conf->fs_rules, r, entry);
}

static void
add_listitem(const char *s)
{
	switch (listctx) {
	case L_SYSENV:
		add_env(ENV_RULE_SYSTEM, s, NULL);
		break;
	case L_PASS:
		add_env(ENV_RULE_PASS, s, NULL);
		break;
	case L_UNSET:
		add_env(ENV_RULE_UNSET, s, NULL);
		break;
	case L_PERMIT:
		add_secret(SECRET_RULE_PERMIT, s);
		break;
	case L_EXPOSE:
		add_secret(SECRET_RULE_EXPOSE, s);
		break;
	case L_READ:
		add_fs(FS_RULE_READ, s);
		break;
	case L_WRITE:
		add_fs(FS_RULE_WRITE, s);
		break;
	case L_EXEC:
		add_fs(FS_RULE_EXEC, s);
		break;
	}
}

static void
parse_reset(void)
{
	errors = 0;
	firsterror[0] = '\0';
	curpol = NULL;
	curdetached = 0;
	lastkind = TK_NEWLINE;
	stmtpos = 0;
}

/* After a NULL from parse_config: its first error, and how many more. */
void
parse_config_error(char *buf, size_t len)
{
	if (firsterror[0] == '\0')
		strlcpy(buf, "the configuration has errors", len);
	else if (errors > 1)
		snprintf(buf, len, "%s (and %d more error%s)", firsterror,
		    errors - 1, errors > 2 ? "s" : "");
	else
		strlcpy(buf, firsterror, len);
}

/* NULL after reporting every error, else a complete config. */
struct sandboxd_conf *
parse_config(const char *filename, int flags)
{
	struct sandboxd_conf	*c;
	char			 err[256];

	parse_reset();
	if ((conf = conf_new()) == NULL) {
		log_warn("%s", __func__);
		return (NULL);
	}
	if ((file = pushfile(filename, err, sizeof(err))) == NULL) {
		parse_warnx("%s: %s", filename, err);
		conf_free(conf);
		conf = NULL;
		return (NULL);
	}
	topfile = file;
	if (yyparse() != 0 && errors == 0)
		errors++;
	while (file != NULL)
		popfile();
	topfile = NULL;
	if (curpol != NULL && curdetached)
		free(curpol);
	curpol = NULL;
	free(cursvc);
	cursvc = NULL;
	symclear();
	strpool_free();
	c = conf;
	if (errors == 0 && conf_ensure_default_policy(c) == -1) {
		log_warn("%s", __func__);
		errors++;
	}
	services_check(c, filename);
	if (errors == 0 && c->global.pin_floor > c->global.pin_ceiling)
		log_warnx("%s: pin-floor %us is above pin-ceiling %us: pins "
		    "last %us at most", filename, c->global.pin_floor,
		    c->global.pin_ceiling, c->global.pin_ceiling);
	conf = NULL;
	if (errors != 0) {
		conf_free(c);
		return (NULL);
	}
	return (c);
}
