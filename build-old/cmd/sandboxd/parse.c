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

#line 205 "build-old/cmd/sandboxd/parse.c"

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
    POLICY = 288,                  /* POLICY  */
    PORT = 289,                    /* PORT  */
    PREBUILD = 290,                /* PREBUILD  */
    PREFIX = 291,                  /* PREFIX  */
    READ = 292,                    /* READ  */
    RESOLVER = 293,                /* RESOLVER  */
    ROOT = 294,                    /* ROOT  */
    SECRETS = 295,                 /* SECRETS  */
    SET = 296,                     /* SET  */
    SOCKET = 297,                  /* SOCKET  */
    STATEDIR = 298,                /* STATEDIR  */
    STDERR = 299,                  /* STDERR  */
    STDOUT = 300,                  /* STDOUT  */
    SUBNET = 301,                  /* SUBNET  */
    TCP = 302,                     /* TCP  */
    TIMEOUT = 303,                 /* TIMEOUT  */
    TMP = 304,                     /* TMP  */
    UDP = 305,                     /* UDP  */
    UIDRANGE = 306,                /* UIDRANGE  */
    UNSET = 307,                   /* UNSET  */
    UPLINK = 308,                  /* UPLINK  */
    UPSTREAM = 309,                /* UPSTREAM  */
    WORKSPACE = 310,               /* WORKSPACE  */
    WRITE = 311,                   /* WRITE  */
    ERROR = 312,                   /* ERROR  */
    ALWAYS = 313,                  /* ALWAYS  */
    COMMAND = 314,                 /* COMMAND  */
    NEVER = 315,                   /* NEVER  */
    ONFAILURE = 316,               /* ONFAILURE  */
    PER = 317,                     /* PER  */
    RESTART = 318,                 /* RESTART  */
    SERVICE = 319,                 /* SERVICE  */
    WATCHDOG = 320,                /* WATCHDOG  */
    STRING = 321,                  /* STRING  */
    NUMBER = 322                   /* NUMBER  */
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
#define POLICY 288
#define PORT 289
#define PREBUILD 290
#define PREFIX 291
#define READ 292
#define RESOLVER 293
#define ROOT 294
#define SECRETS 295
#define SET 296
#define SOCKET 297
#define STATEDIR 298
#define STDERR 299
#define STDOUT 300
#define SUBNET 301
#define TCP 302
#define TIMEOUT 303
#define TMP 304
#define UDP 305
#define UIDRANGE 306
#define UNSET 307
#define UPLINK 308
#define UPSTREAM 309
#define WORKSPACE 310
#define WRITE 311
#define ERROR 312
#define ALWAYS 313
#define COMMAND 314
#define NEVER 315
#define ONFAILURE 316
#define PER 317
#define RESTART 318
#define SERVICE 319
#define WATCHDOG 320
#define STRING 321
#define NUMBER 322

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
  YYSYMBOL_POLICY = 33,                    /* POLICY  */
  YYSYMBOL_PORT = 34,                      /* PORT  */
  YYSYMBOL_PREBUILD = 35,                  /* PREBUILD  */
  YYSYMBOL_PREFIX = 36,                    /* PREFIX  */
  YYSYMBOL_READ = 37,                      /* READ  */
  YYSYMBOL_RESOLVER = 38,                  /* RESOLVER  */
  YYSYMBOL_ROOT = 39,                      /* ROOT  */
  YYSYMBOL_SECRETS = 40,                   /* SECRETS  */
  YYSYMBOL_SET = 41,                       /* SET  */
  YYSYMBOL_SOCKET = 42,                    /* SOCKET  */
  YYSYMBOL_STATEDIR = 43,                  /* STATEDIR  */
  YYSYMBOL_STDERR = 44,                    /* STDERR  */
  YYSYMBOL_STDOUT = 45,                    /* STDOUT  */
  YYSYMBOL_SUBNET = 46,                    /* SUBNET  */
  YYSYMBOL_TCP = 47,                       /* TCP  */
  YYSYMBOL_TIMEOUT = 48,                   /* TIMEOUT  */
  YYSYMBOL_TMP = 49,                       /* TMP  */
  YYSYMBOL_UDP = 50,                       /* UDP  */
  YYSYMBOL_UIDRANGE = 51,                  /* UIDRANGE  */
  YYSYMBOL_UNSET = 52,                     /* UNSET  */
  YYSYMBOL_UPLINK = 53,                    /* UPLINK  */
  YYSYMBOL_UPSTREAM = 54,                  /* UPSTREAM  */
  YYSYMBOL_WORKSPACE = 55,                 /* WORKSPACE  */
  YYSYMBOL_WRITE = 56,                     /* WRITE  */
  YYSYMBOL_ERROR = 57,                     /* ERROR  */
  YYSYMBOL_ALWAYS = 58,                    /* ALWAYS  */
  YYSYMBOL_COMMAND = 59,                   /* COMMAND  */
  YYSYMBOL_NEVER = 60,                     /* NEVER  */
  YYSYMBOL_ONFAILURE = 61,                 /* ONFAILURE  */
  YYSYMBOL_PER = 62,                       /* PER  */
  YYSYMBOL_RESTART = 63,                   /* RESTART  */
  YYSYMBOL_SERVICE = 64,                   /* SERVICE  */
  YYSYMBOL_WATCHDOG = 65,                  /* WATCHDOG  */
  YYSYMBOL_STRING = 66,                    /* STRING  */
  YYSYMBOL_NUMBER = 67,                    /* NUMBER  */
  YYSYMBOL_68_n_ = 68,                     /* '\n'  */
  YYSYMBOL_69_ = 69,                       /* ';'  */
  YYSYMBOL_70_ = 70,                       /* '='  */
  YYSYMBOL_71_ = 71,                       /* '{'  */
  YYSYMBOL_72_ = 72,                       /* '}'  */
  YYSYMBOL_73_ = 73,                       /* ','  */
  YYSYMBOL_YYACCEPT = 74,                  /* $accept  */
  YYSYMBOL_grammar = 75,                   /* grammar  */
  YYSYMBOL_sep = 76,                       /* sep  */
  YYSYMBOL_optnl = 77,                     /* optnl  */
  YYSYMBOL_string = 78,                    /* string  */
  YYSYMBOL_include = 79,                   /* include  */
  YYSYMBOL_varset = 80,                    /* varset  */
  YYSYMBOL_num32 = 81,                     /* num32  */
  YYSYMBOL_port = 82,                      /* port  */
  YYSYMBOL_optport = 83,                   /* optport  */
  YYSYMBOL_proto = 84,                     /* proto  */
  YYSYMBOL_size = 85,                      /* size  */
  YYSYMBOL_time = 86,                      /* time  */
  YYSYMBOL_percent = 87,                   /* percent  */
  YYSYMBOL_main = 88,                      /* main  */
  YYSYMBOL_genvblock = 89,                 /* genvblock  */
  YYSYMBOL_genvlist = 90,                  /* genvlist  */
  YYSYMBOL_genvopt = 91,                   /* genvopt  */
  YYSYMBOL_92_1 = 92,                      /* $@1  */
  YYSYMBOL_names = 93,                     /* names  */
  YYSYMBOL_policy = 94,                    /* policy  */
  YYSYMBOL_policyhead = 95,                /* policyhead  */
  YYSYMBOL_plist = 96,                     /* plist  */
  YYSYMBOL_pstmt = 97,                     /* pstmt  */
  YYSYMBOL_restartmode = 98,               /* restartmode  */
  YYSYMBOL_service = 99,                   /* service  */
  YYSYMBOL_servicehead = 100,              /* servicehead  */
  YYSYMBOL_svclist = 101,                  /* svclist  */
  YYSYMBOL_svcopt = 102,                   /* svcopt  */
  YYSYMBOL_103_2 = 103,                    /* $@2  */
  YYSYMBOL_svcargs = 104,                  /* svcargs  */
  YYSYMBOL_netblock = 105,                 /* netblock  */
  YYSYMBOL_netlist = 106,                  /* netlist  */
  YYSYMBOL_netopt = 107,                   /* netopt  */
  YYSYMBOL_108_3 = 108,                    /* $@3  */
  YYSYMBOL_fromlist = 109,                 /* fromlist  */
  YYSYMBOL_fromaddrs = 110,                /* fromaddrs  */
  YYSYMBOL_optcomma = 111,                 /* optcomma  */
  YYSYMBOL_penvblock = 112,                /* penvblock  */
  YYSYMBOL_penvlist = 113,                 /* penvlist  */
  YYSYMBOL_penvopt = 114,                  /* penvopt  */
  YYSYMBOL_115_4 = 115,                    /* $@4  */
  YYSYMBOL_116_5 = 116,                    /* $@5  */
  YYSYMBOL_secblock = 117,                 /* secblock  */
  YYSYMBOL_seclist = 118,                  /* seclist  */
  YYSYMBOL_secopt = 119,                   /* secopt  */
  YYSYMBOL_120_6 = 120,                    /* $@6  */
  YYSYMBOL_121_7 = 121,                    /* $@7  */
  YYSYMBOL_limblock = 122,                 /* limblock  */
  YYSYMBOL_limlist = 123,                  /* limlist  */
  YYSYMBOL_limopt = 124,                   /* limopt  */
  YYSYMBOL_fsblock = 125,                  /* fsblock  */
  YYSYMBOL_fslist = 126,                   /* fslist  */
  YYSYMBOL_fsopt = 127,                    /* fsopt  */
  YYSYMBOL_128_8 = 128,                    /* $@8  */
  YYSYMBOL_129_9 = 129,                    /* $@9  */
  YYSYMBOL_130_10 = 130                    /* $@10  */
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
#define YYLAST   327

/* YYNTOKENS -- Number of terminals.  */
#define YYNTOKENS  74
/* YYNNTS -- Number of nonterminals.  */
#define YYNNTS  57
/* YYNRULES -- Number of rules.  */
#define YYNRULES  173
/* YYNSTATES -- Number of states.  */
#define YYNSTATES  290

/* YYMAXUTOK -- Last valid token kind.  */
#define YYMAXUTOK   322


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
      68,     2,     2,     2,     2,     2,     2,     2,     2,     2,
       2,     2,     2,     2,     2,     2,     2,     2,     2,     2,
       2,     2,     2,     2,     2,     2,     2,     2,     2,     2,
       2,     2,     2,     2,    73,     2,     2,     2,     2,     2,
       2,     2,     2,     2,     2,     2,     2,     2,     2,    69,
       2,    70,     2,     2,     2,     2,     2,     2,     2,     2,
       2,     2,     2,     2,     2,     2,     2,     2,     2,     2,
       2,     2,     2,     2,     2,     2,     2,     2,     2,     2,
       2,     2,     2,     2,     2,     2,     2,     2,     2,     2,
       2,     2,     2,     2,     2,     2,     2,     2,     2,     2,
       2,     2,     2,     2,     2,     2,     2,     2,     2,     2,
       2,     2,     2,    71,     2,    72,     2,     2,     2,     2,
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
      65,    66,    67
};

#if YYDEBUG
/* YYRLINE[YYN] -- Source line where rule number YYN was defined.  */
static const yytype_int16 yyrline[] =
{
       0,   157,   157,   158,   159,   160,   161,   162,   163,   164,
     167,   168,   171,   172,   175,   176,   184,   187,   190,   198,
     204,   212,   218,   219,   222,   223,   224,   227,   234,   240,
     247,   253,   260,   266,   269,   272,   276,   277,   282,   286,
     290,   295,   300,   305,   309,   313,   317,   322,   325,   326,
     327,   330,   331,   332,   333,   336,   336,   337,   341,   351,
     352,   355,   356,   357,   363,   366,   367,   368,   369,   372,
     376,   377,   378,   379,   380,   381,   384,   387,   388,   389,
     392,   393,   394,   400,   403,   404,   405,   406,   409,   410,
     410,   413,   414,   417,   418,   419,   422,   423,   424,   425,
     428,   432,   436,   440,   441,   442,   442,   443,   444,   445,
     450,   451,   454,   455,   460,   461,   464,   465,   466,   469,
     470,   471,   472,   475,   475,   476,   477,   477,   480,   481,
     482,   485,   486,   487,   488,   491,   491,   492,   492,   495,
     496,   497,   500,   501,   502,   503,   506,   510,   514,   518,
     519,   520,   521,   525,   529,   533,   537,   541,   545,   551,
     552,   553,   556,   557,   558,   559,   562,   566,   566,   567,
     567,   568,   568,   569
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
  "NETWORK", "NOFILE", "PASS", "PERMIT", "PIDS", "PINFLOOR", "POLICY",
  "PORT", "PREBUILD", "PREFIX", "READ", "RESOLVER", "ROOT", "SECRETS",
  "SET", "SOCKET", "STATEDIR", "STDERR", "STDOUT", "SUBNET", "TCP",
  "TIMEOUT", "TMP", "UDP", "UIDRANGE", "UNSET", "UPLINK", "UPSTREAM",
  "WORKSPACE", "WRITE", "ERROR", "ALWAYS", "COMMAND", "NEVER", "ONFAILURE",
  "PER", "RESTART", "SERVICE", "WATCHDOG", "STRING", "NUMBER", "'\\n'",
  "';'", "'='", "'{'", "'}'", "','", "$accept", "grammar", "sep", "optnl",
  "string", "include", "varset", "num32", "port", "optport", "proto",
  "size", "time", "percent", "main", "genvblock", "genvlist", "genvopt",
  "$@1", "names", "policy", "policyhead", "plist", "pstmt", "restartmode",
  "service", "servicehead", "svclist", "svcopt", "$@2", "svcargs",
  "netblock", "netlist", "netopt", "$@3", "fromlist", "fromaddrs",
  "optcomma", "penvblock", "penvlist", "penvopt", "$@4", "$@5", "secblock",
  "seclist", "secopt", "$@6", "$@7", "limblock", "limlist", "limopt",
  "fsblock", "fslist", "fsopt", "$@8", "$@9", "$@10", YY_NULLPTR
};

static const char *
yysymbol_name (yysymbol_kind_t yysymbol)
{
  return yytname[yysymbol];
}
#endif

#define YYPACT_NINF (-235)

#define yypact_value_is_default(Yyn) \
  ((Yyn) == YYPACT_NINF)

#define YYTABLE_NINF (-115)

#define yytable_value_is_error(Yyn) \
  0

/* YYPACT[STATE-NUM] -- Index in YYTABLE of the portion describing
   STATE-NUM.  */
static const yytype_int16 yypact[] =
{
    -235,   258,  -235,   118,   -13,  -235,   143,   143,   148,   143,
     165,   -49,   143,   143,   -22,   165,   143,   -39,   143,   -34,
    -235,  -235,  -235,   118,   118,   118,   118,   -19,   118,     7,
    -235,   143,   143,    -3,  -235,  -235,  -235,  -235,  -235,  -235,
    -235,  -235,  -235,  -235,  -235,     4,  -235,  -235,  -235,   165,
    -235,   148,    29,  -235,   143,  -235,  -235,  -235,  -235,  -235,
    -235,  -235,  -235,  -235,  -235,  -235,  -235,    19,    23,  -235,
    -235,   170,  -235,    19,  -235,   161,   123,    30,    29,  -235,
    -235,  -235,   -23,  -235,  -235,  -235,  -235,  -235,    22,   148,
    -235,  -235,     3,    43,   143,  -235,  -235,  -235,    60,    71,
     221,  -235,   143,  -235,  -235,    91,  -235,  -235,  -235,     6,
      48,    83,    90,   105,  -235,  -235,  -235,    81,  -235,  -235,
    -235,  -235,  -235,  -235,   143,  -235,  -235,  -235,  -235,  -235,
    -235,  -235,   143,  -235,  -235,  -235,  -235,  -235,  -235,  -235,
    -235,  -235,  -235,  -235,  -235,  -235,    50,  -235,   143,  -235,
     143,    32,   205,    78,    66,    80,    59,  -235,  -235,   125,
    -235,   143,  -235,  -235,  -235,   131,   139,  -235,  -235,  -235,
     143,  -235,  -235,  -235,   151,   153,   228,   221,   148,   221,
     165,   165,   221,   221,   -16,   221,   221,  -235,  -235,   198,
     203,    -4,  -235,    21,    25,  -235,  -235,   212,   217,  -235,
    -235,  -235,  -235,   245,   148,  -235,  -235,   143,   143,   143,
    -235,  -235,  -235,  -235,   143,   143,  -235,   143,  -235,  -235,
    -235,  -235,  -235,  -235,  -235,  -235,  -235,  -235,  -235,  -235,
    -235,  -235,   148,   101,  -235,  -235,  -235,  -235,  -235,  -235,
      64,   143,   102,  -235,  -235,   126,  -235,  -235,  -235,  -235,
    -235,   143,   143,  -235,  -235,  -235,   143,  -235,   143,   143,
     143,   143,  -235,   148,  -235,   111,   170,  -235,   143,   143,
    -235,   170,   -31,   -51,   -31,  -235,  -235,  -235,  -235,  -235,
    -235,   -52,  -235,   130,  -235,    87,   -52,  -235,    -8,  -235
};

/* YYDEFACT[STATE-NUM] -- Default reduction number in state STATE-NUM.
   Performed when YYTABLE does not specify something else to do.  Zero
   means the default is an error.  */
static const yytype_uint8 yydefact[] =
{
       2,     0,     1,     0,     0,    12,     0,     0,     0,     0,
       0,     0,     0,     0,     0,     0,     0,     0,     0,     0,
      10,    11,     3,     0,     0,     0,     0,     0,     0,     0,
       9,     0,     0,     0,    14,    15,    16,    40,    30,    29,
      38,    12,    19,    18,    45,    34,    43,    44,    33,     0,
      39,     0,    22,    12,     0,     4,     5,     6,     7,    65,
       8,    84,    42,    41,    13,    51,    47,    64,     0,    46,
      37,     0,    36,    83,    17,     0,     0,     0,    22,    21,
      20,    23,     0,    12,    12,    12,    12,    12,     0,     0,
      61,    66,     0,     0,     0,    89,    80,    85,     0,     0,
       0,    55,     0,    48,    52,     0,    35,    63,    68,     0,
       0,     0,     0,     0,    79,    77,    78,    74,    76,    62,
      67,    82,    87,    88,     0,    81,    86,    50,    54,    28,
      27,    58,     0,    57,    49,    53,   119,    70,   162,    73,
     142,    72,    96,    69,   131,    71,     0,    91,    90,    59,
      56,     0,     0,     0,     0,     0,     0,    92,    60,     0,
     123,     0,   126,   116,   120,     0,     0,   171,   173,   167,
       0,   169,   159,   163,     0,     0,     0,     0,     0,     0,
       0,     0,     0,     0,     0,     0,     0,   139,   143,     0,
       0,     0,   102,     0,     0,    93,    97,     0,     0,   137,
     135,   128,   132,     0,     0,   118,   122,     0,     0,     0,
     117,   121,   161,   165,     0,     0,   166,     0,   160,   164,
     141,   145,    32,    31,   148,   156,   158,   146,   157,   147,
     153,   152,     0,   149,   155,   154,   140,   144,    95,    99,
       0,     0,     0,   101,   100,   104,   103,    94,    98,   130,
     134,     0,     0,   129,   133,    75,   124,   125,   127,   172,
     168,   170,   151,     0,   108,     0,     0,   105,   138,   136,
     150,     0,    24,     0,    24,    25,    26,   107,   112,    12,
     106,   110,   109,     0,   115,     0,    12,   113,     0,   111
};

/* YYPGOTO[NTERM-NUM].  */
static const yytype_int16 yypgoto[] =
{
    -235,  -235,    15,   -30,    -6,  -235,  -235,    -2,  -234,    93,
    -109,   120,   -47,  -235,  -235,  -235,  -235,  -235,  -235,    31,
    -235,  -235,  -235,  -235,  -235,  -235,  -235,  -235,  -235,  -235,
    -235,  -235,  -235,  -235,  -235,  -235,  -106,  -235,  -235,  -235,
    -235,  -235,  -235,  -235,  -235,  -235,  -235,  -235,  -235,  -235,
    -235,  -235,  -235,  -235,  -235,  -235,  -235
};

/* YYDEFGOTO[NTERM-NUM].  */
static const yytype_int16 yydefgoto[] =
{
       0,     1,    22,    33,   149,    23,    24,    44,    81,    72,
     277,   131,    40,   224,    25,    66,    77,   105,   132,   150,
      26,    27,    75,    92,   117,    28,    29,    76,    98,   124,
     148,   143,   154,   197,   273,   280,   281,   285,   137,   151,
     165,   207,   209,   145,   155,   203,   252,   251,   141,   153,
     189,   139,   152,   174,   215,   217,   214
};

/* YYTABLE[YYPACT[STATE-NUM]] -- What to do in state STATE-NUM.  If
   positive, shift that token.  If negative, reduce the rule whose
   number is the opposite.  If YYTABLE_NINF, syntax error.  */
static const yytype_int16 yytable[] =
{
      36,    37,   240,    41,    70,    31,    46,    47,   232,    51,
      50,    67,    53,    49,  -114,   278,   275,    45,    30,   276,
     279,   284,   241,    73,   243,    62,    63,    52,   245,    32,
     244,    99,   272,   159,   246,   100,    54,   274,    55,    56,
      57,    58,   118,    60,    48,    20,    21,    69,    74,   107,
      38,    39,    59,   109,   110,   111,   112,   113,    68,   101,
      64,   160,   242,    71,   289,    64,   102,   190,    65,   191,
     192,    20,    21,   161,    64,   119,   193,   136,    61,   175,
     114,   198,   115,   116,   162,   194,   176,    64,   123,    78,
      91,    97,   104,   199,   177,   178,   133,   108,    20,    21,
      20,    21,   103,   179,   163,   146,   180,   120,   122,   181,
     200,    20,    21,   126,   128,   121,    64,   156,   147,   138,
     135,   204,   182,   183,    93,   263,   184,   185,    20,    21,
     264,   226,   125,   186,    20,    21,   266,   233,   195,    20,
      21,   267,   157,   127,   158,   271,    20,    21,    20,    21,
     187,    64,   201,   287,   140,   208,    94,   255,    64,    20,
      21,   142,    82,   134,   216,   282,   164,   173,   188,   196,
     202,   106,    83,    64,   206,    84,   144,   286,   228,   229,
     211,   213,    95,     0,    85,   262,    20,    21,    86,   219,
     221,    20,    21,    20,    21,    96,   278,   205,    64,    20,
      21,    87,   257,   210,   237,   239,   166,    20,    21,    34,
      35,   212,   248,   250,    38,    39,   270,   167,   254,    20,
      21,    20,    21,   218,    88,   220,    89,   168,     0,    20,
      21,    42,    43,    90,     0,   265,    79,    80,   256,     0,
     258,     0,   169,     0,   170,   259,   260,     0,   261,   283,
     158,     0,   158,   158,   158,   158,   288,     0,     2,     3,
       0,   171,   158,   158,     0,     4,    20,    21,     0,     5,
     236,    20,    21,    20,    21,   238,     0,   172,     6,     7,
      20,    21,   268,   269,   247,    20,    21,   129,   130,   249,
       8,     9,     0,    10,   222,   223,    11,   225,    12,   227,
       0,    13,   230,   231,    14,   234,   235,     0,     0,    15,
       0,    16,    17,    20,    21,     0,     0,   253,     0,     0,
       0,     0,    18,     0,    19,     0,    20,    21
};

static const yytype_int16 yycheck[] =
{
       6,     7,     6,     9,    51,    18,    12,    13,    24,    48,
      16,    41,    18,    15,    66,    66,    47,    66,     3,    50,
      71,    73,    26,    53,     3,    31,    32,    66,     3,    42,
       9,     1,   266,     1,     9,     5,    70,   271,    23,    24,
      25,    26,    89,    28,    66,    68,    69,    49,    54,    72,
      66,    67,    71,    83,    84,    85,    86,    87,    54,    29,
      68,    29,    66,    34,    72,    68,    36,     1,    71,     3,
       4,    68,    69,    41,    68,    72,    10,    71,    71,     1,
      58,     1,    60,    61,    52,    19,     8,    68,    94,    66,
      75,    76,    77,    13,    16,    17,   102,    82,    68,    69,
      68,    69,    72,    25,    72,    24,    28,    92,    93,    31,
      30,    68,    69,    98,    99,    72,    68,    67,   124,    71,
     105,    62,    44,    45,     1,    24,    48,    49,    68,    69,
      66,   178,    72,    55,    68,    69,    34,   184,    72,    68,
      69,    15,   148,    72,   150,    34,    68,    69,    68,    69,
      72,    68,    72,    66,    71,   161,    33,   204,    68,    68,
      69,    71,     1,    72,   170,   274,   151,   152,   153,   154,
     155,    78,    11,    68,   159,    14,    71,   283,   180,   181,
     165,   166,    59,    -1,    23,   232,    68,    69,    27,   174,
     175,    68,    69,    68,    69,    72,    66,    72,    68,    68,
      69,    40,   208,    72,   189,   190,     1,    68,    69,    66,
      67,    72,   197,   198,    66,    67,   263,    12,   203,    68,
      69,    68,    69,    72,    63,    72,    65,    22,    -1,    68,
      69,    66,    67,    72,    -1,   241,    66,    67,   207,    -1,
     209,    -1,    37,    -1,    39,   214,   215,    -1,   217,   279,
     256,    -1,   258,   259,   260,   261,   286,    -1,     0,     1,
      -1,    56,   268,   269,    -1,     7,    68,    69,    -1,    11,
      72,    68,    69,    68,    69,    72,    -1,    72,    20,    21,
      68,    69,   251,   252,    72,    68,    69,    66,    67,    72,
      32,    33,    -1,    35,    66,    67,    38,   177,    40,   179,
      -1,    43,   182,   183,    46,   185,   186,    -1,    -1,    51,
      -1,    53,    54,    68,    69,    -1,    -1,    72,    -1,    -1,
      -1,    -1,    64,    -1,    66,    -1,    68,    69
};

/* YYSTOS[STATE-NUM] -- The symbol kind of the accessing symbol of
   state STATE-NUM.  */
static const yytype_uint8 yystos[] =
{
       0,    75,     0,     1,     7,    11,    20,    21,    32,    33,
      35,    38,    40,    43,    46,    51,    53,    54,    64,    66,
      68,    69,    76,    79,    80,    88,    94,    95,    99,   100,
      76,    18,    42,    77,    66,    67,    78,    78,    66,    67,
      86,    78,    66,    67,    81,    66,    78,    78,    66,    81,
      78,    48,    66,    78,    70,    76,    76,    76,    76,    71,
      76,    71,    78,    78,    68,    71,    89,    77,    54,    81,
      86,    34,    83,    77,    78,    96,   101,    90,    66,    66,
      67,    82,     1,    11,    14,    23,    27,    40,    63,    65,
      72,    76,    97,     1,    33,    59,    72,    76,   102,     1,
       5,    29,    36,    72,    76,    91,    83,    72,    76,    77,
      77,    77,    77,    77,    58,    60,    61,    98,    86,    72,
      76,    72,    76,    78,   103,    72,    76,    72,    76,    66,
      67,    85,    92,    78,    72,    76,    71,   112,    71,   125,
      71,   122,    71,   105,    71,   117,    24,    78,   104,    78,
      93,   113,   126,   123,   106,   118,    67,    78,    78,     1,
      29,    41,    52,    72,    76,   114,     1,    12,    22,    37,
      39,    56,    72,    76,   127,     1,     8,    16,    17,    25,
      28,    31,    44,    45,    48,    49,    55,    72,    76,   124,
       1,     3,     4,    10,    19,    72,    76,   107,     1,    13,
      30,    72,    76,   119,    62,    72,    76,   115,    78,   116,
      72,    76,    72,    76,   130,   128,    78,   129,    72,    76,
      72,    76,    66,    67,    87,    85,    86,    85,    81,    81,
      85,    85,    24,    86,    85,    85,    72,    76,    72,    76,
       6,    26,    66,     3,     9,     3,     9,    72,    76,    72,
      76,   121,   120,    72,    76,    86,    93,    78,    93,    93,
      93,    93,    86,    24,    66,    78,    34,    15,    93,    93,
      86,    34,    82,   108,    82,    47,    50,    84,    66,    71,
     109,   110,    84,    77,    73,   111,   110,    66,    77,    72
};

/* YYR1[RULE-NUM] -- Symbol kind of the left-hand side of rule RULE-NUM.  */
static const yytype_uint8 yyr1[] =
{
       0,    74,    75,    75,    75,    75,    75,    75,    75,    75,
      76,    76,    77,    77,    78,    78,    79,    80,    81,    81,
      82,    82,    83,    83,    84,    84,    84,    85,    85,    86,
      86,    87,    87,    88,    88,    88,    88,    88,    88,    88,
      88,    88,    88,    88,    88,    88,    88,    88,    89,    89,
      89,    90,    90,    90,    90,    92,    91,    91,    91,    93,
      93,    94,    94,    94,    95,    96,    96,    96,    96,    97,
      97,    97,    97,    97,    97,    97,    97,    98,    98,    98,
      99,    99,    99,   100,   101,   101,   101,   101,   102,   103,
     102,   104,   104,   105,   105,   105,   106,   106,   106,   106,
     107,   107,   107,   107,   107,   108,   107,   107,   107,   107,
     109,   109,   110,   110,   111,   111,   112,   112,   112,   113,
     113,   113,   113,   115,   114,   114,   116,   114,   117,   117,
     117,   118,   118,   118,   118,   120,   119,   121,   119,   122,
     122,   122,   123,   123,   123,   123,   124,   124,   124,   124,
     124,   124,   124,   124,   124,   124,   124,   124,   124,   125,
     125,   125,   126,   126,   126,   126,   127,   128,   127,   129,
     127,   130,   127,   127
};

/* YYR2[RULE-NUM] -- Number of symbols on the right-hand side of rule RULE-NUM.  */
static const yytype_int8 yyr2[] =
{
       0,     2,     0,     2,     3,     3,     3,     3,     3,     3,
       1,     1,     0,     2,     1,     1,     2,     3,     1,     1,
       1,     1,     0,     2,     0,     1,     1,     1,     1,     1,
       1,     1,     1,     2,     2,     5,     3,     3,     2,     2,
       2,     3,     3,     2,     2,     2,     3,     3,     3,     4,
       4,     0,     2,     3,     3,     0,     3,     2,     2,     1,
       2,     4,     5,     5,     3,     0,     2,     3,     3,     3,
       3,     3,     3,     3,     2,     6,     2,     1,     1,     1,
       4,     5,     5,     3,     0,     2,     3,     3,     2,     0,
       3,     1,     2,     3,     4,     4,     0,     2,     3,     3,
       2,     2,     1,     2,     2,     0,     5,     5,     3,     6,
       1,     5,     1,     3,     0,     1,     3,     4,     4,     0,
       2,     3,     3,     0,     3,     3,     0,     3,     3,     4,
       4,     0,     2,     3,     3,     0,     3,     0,     3,     3,
       4,     4,     0,     2,     3,     3,     2,     2,     2,     2,
       4,     3,     2,     2,     2,     2,     2,     2,     2,     3,
       4,     4,     0,     2,     3,     3,     2,     0,     3,     0,
       3,     0,     3,     1
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
#line 164 "cmd/sandboxd/parse.y"
                                        { yyerrok; }
#line 1707 "build-old/cmd/sandboxd/parse.c"
    break;

  case 15: /* string: NUMBER  */
#line 176 "cmd/sandboxd/parse.y"
                                {
			char	 buf[32];

			snprintf(buf, sizeof(buf), "%lld", (long long)(yyvsp[0].v.number));
			(yyval.v.string) = strpool(buf);
		}
#line 1718 "build-old/cmd/sandboxd/parse.c"
    break;

  case 16: /* include: INCLUDE string  */
#line 184 "cmd/sandboxd/parse.y"
                                                { include_file((yyvsp[0].v.string)); }
#line 1724 "build-old/cmd/sandboxd/parse.c"
    break;

  case 17: /* varset: STRING '=' string  */
#line 187 "cmd/sandboxd/parse.y"
                                                { macro_define((yyvsp[-2].v.string), (yyvsp[0].v.string)); }
#line 1730 "build-old/cmd/sandboxd/parse.c"
    break;

  case 18: /* num32: NUMBER  */
#line 190 "cmd/sandboxd/parse.y"
                         {
			if ((yyvsp[0].v.number) < 0 || (yyvsp[0].v.number) > UINT32_MAX) {
				yyerror("number %lld out of range 0-%u",
				    (long long)(yyvsp[0].v.number), UINT32_MAX);
				YYERROR;
			}
			(yyval.v.number) = (yyvsp[0].v.number);
		}
#line 1743 "build-old/cmd/sandboxd/parse.c"
    break;

  case 19: /* num32: STRING  */
#line 198 "cmd/sandboxd/parse.y"
                         {
			yyerror("\"%s\": not a number", (yyvsp[0].v.string));
			YYERROR;
		}
#line 1752 "build-old/cmd/sandboxd/parse.c"
    break;

  case 20: /* port: NUMBER  */
#line 204 "cmd/sandboxd/parse.y"
                         {
			if ((yyvsp[0].v.number) < 1 || (yyvsp[0].v.number) > 65535) {
				yyerror("port %lld out of range 1-65535",
				    (long long)(yyvsp[0].v.number));
				YYERROR;
			}
			(yyval.v.number) = (yyvsp[0].v.number);
		}
#line 1765 "build-old/cmd/sandboxd/parse.c"
    break;

  case 21: /* port: STRING  */
#line 212 "cmd/sandboxd/parse.y"
                         {
			yyerror("port \"%s\": not a number", (yyvsp[0].v.string));
			YYERROR;
		}
#line 1774 "build-old/cmd/sandboxd/parse.c"
    break;

  case 22: /* optport: %empty  */
#line 218 "cmd/sandboxd/parse.y"
                                                { (yyval.v.number) = 53; }
#line 1780 "build-old/cmd/sandboxd/parse.c"
    break;

  case 23: /* optport: PORT port  */
#line 219 "cmd/sandboxd/parse.y"
                                                { (yyval.v.number) = (yyvsp[0].v.number); }
#line 1786 "build-old/cmd/sandboxd/parse.c"
    break;

  case 24: /* proto: %empty  */
#line 222 "cmd/sandboxd/parse.y"
                                                { (yyval.v.number) = IPPROTO_TCP; }
#line 1792 "build-old/cmd/sandboxd/parse.c"
    break;

  case 25: /* proto: TCP  */
#line 223 "cmd/sandboxd/parse.y"
                                                { (yyval.v.number) = IPPROTO_TCP; }
#line 1798 "build-old/cmd/sandboxd/parse.c"
    break;

  case 26: /* proto: UDP  */
#line 224 "cmd/sandboxd/parse.y"
                                                { (yyval.v.number) = IPPROTO_UDP; }
#line 1804 "build-old/cmd/sandboxd/parse.c"
    break;

  case 27: /* size: NUMBER  */
#line 227 "cmd/sandboxd/parse.y"
                         {
			if ((yyvsp[0].v.number) < 0) {
				yyerror("size %lld is negative", (long long)(yyvsp[0].v.number));
				YYERROR;
			}
			(yyval.v.u64) = (yyvsp[0].v.number);
		}
#line 1816 "build-old/cmd/sandboxd/parse.c"
    break;

  case 28: /* size: STRING  */
#line 234 "cmd/sandboxd/parse.y"
                         {
			if (parse_size((yyvsp[0].v.string), &(yyval.v.u64)) == -1)
				YYERROR;
		}
#line 1825 "build-old/cmd/sandboxd/parse.c"
    break;

  case 29: /* time: NUMBER  */
#line 240 "cmd/sandboxd/parse.y"
                         {
			if ((yyvsp[0].v.number) < 0 || (uint64_t)(yyvsp[0].v.number) > UINT64_MAX / 1000) {
				yyerror("time %lld out of range", (long long)(yyvsp[0].v.number));
				YYERROR;
			}
			(yyval.v.u64) = (yyvsp[0].v.number) * 1000;
		}
#line 1837 "build-old/cmd/sandboxd/parse.c"
    break;

  case 30: /* time: STRING  */
#line 247 "cmd/sandboxd/parse.y"
                         {
			if (parse_time((yyvsp[0].v.string), &(yyval.v.u64)) == -1)
				YYERROR;
		}
#line 1846 "build-old/cmd/sandboxd/parse.c"
    break;

  case 31: /* percent: NUMBER  */
#line 253 "cmd/sandboxd/parse.y"
                         {
			if ((yyvsp[0].v.number) < 0 || (yyvsp[0].v.number) > UINT32_MAX) {
				yyerror("cpu %lld%% out of range", (long long)(yyvsp[0].v.number));
				YYERROR;
			}
			(yyval.v.number) = (yyvsp[0].v.number);
		}
#line 1858 "build-old/cmd/sandboxd/parse.c"
    break;

  case 32: /* percent: STRING  */
#line 260 "cmd/sandboxd/parse.y"
                         {
			if (parse_percent((yyvsp[0].v.string), &(yyval.v.number)) == -1)
				YYERROR;
		}
#line 1867 "build-old/cmd/sandboxd/parse.c"
    break;

  case 33: /* main: SUBNET STRING  */
#line 266 "cmd/sandboxd/parse.y"
                                {
			set_prefix(&conf->global.subnet, (yyvsp[0].v.string), 0);
		}
#line 1875 "build-old/cmd/sandboxd/parse.c"
    break;

  case 34: /* main: RESOLVER STRING  */
#line 269 "cmd/sandboxd/parse.y"
                                  {
			set_prefix(&conf->global.resolver, (yyvsp[0].v.string), 1);
		}
#line 1883 "build-old/cmd/sandboxd/parse.c"
    break;

  case 35: /* main: RESOLVER STRING UPSTREAM STRING optport  */
#line 272 "cmd/sandboxd/parse.y"
                                                          {
			set_prefix(&conf->global.resolver, (yyvsp[-3].v.string), 1);
			add_upstream((yyvsp[-1].v.string), (yyvsp[0].v.number));
		}
#line 1892 "build-old/cmd/sandboxd/parse.c"
    break;

  case 36: /* main: UPSTREAM STRING optport  */
#line 276 "cmd/sandboxd/parse.y"
                                                { add_upstream((yyvsp[-1].v.string), (yyvsp[0].v.number)); }
#line 1898 "build-old/cmd/sandboxd/parse.c"
    break;

  case 37: /* main: UPSTREAM TIMEOUT time  */
#line 277 "cmd/sandboxd/parse.y"
                                        {
			if (msecs(&gbegin()->upstream_timeout_ms, (yyvsp[0].v.u64),
			    "upstream timeout") == 0)
				gcommit();
		}
#line 1908 "build-old/cmd/sandboxd/parse.c"
    break;

  case 38: /* main: PINFLOOR time  */
#line 282 "cmd/sandboxd/parse.y"
                                {
			if (secs(&gbegin()->pin_floor, (yyvsp[0].v.u64), "pin-floor") == 0)
				gcommit();
		}
#line 1917 "build-old/cmd/sandboxd/parse.c"
    break;

  case 39: /* main: UPLINK string  */
#line 286 "cmd/sandboxd/parse.y"
                                {
			set_gstr(conf->global.uplink,
			    sizeof(conf->global.uplink), (yyvsp[0].v.string), "uplink");
		}
#line 1926 "build-old/cmd/sandboxd/parse.c"
    break;

  case 40: /* main: IFPREFIX string  */
#line 290 "cmd/sandboxd/parse.y"
                                  {
			set_gstr(conf->global.ifprefix,
			    sizeof(conf->global.ifprefix), (yyvsp[0].v.string),
			    "interface-prefix");
		}
#line 1936 "build-old/cmd/sandboxd/parse.c"
    break;

  case 41: /* main: CONTROL SOCKET string  */
#line 295 "cmd/sandboxd/parse.y"
                                        {
			set_gstr(conf->global.control_socket,
			    sizeof(conf->global.control_socket), (yyvsp[0].v.string),
			    "control socket");
		}
#line 1946 "build-old/cmd/sandboxd/parse.c"
    break;

  case 42: /* main: CONTROL GROUP string  */
#line 300 "cmd/sandboxd/parse.y"
                                       {
			set_gstr(conf->global.control_group,
			    sizeof(conf->global.control_group), (yyvsp[0].v.string),
			    "control group");
		}
#line 1956 "build-old/cmd/sandboxd/parse.c"
    break;

  case 43: /* main: SECRETS string  */
#line 305 "cmd/sandboxd/parse.y"
                                 {
			set_gstr(conf->global.secrets_path,
			    sizeof(conf->global.secrets_path), (yyvsp[0].v.string), "secrets");
		}
#line 1965 "build-old/cmd/sandboxd/parse.c"
    break;

  case 44: /* main: STATEDIR string  */
#line 309 "cmd/sandboxd/parse.y"
                                  {
			set_gstr(conf->global.state_dir,
			    sizeof(conf->global.state_dir), (yyvsp[0].v.string), "state-dir");
		}
#line 1974 "build-old/cmd/sandboxd/parse.c"
    break;

  case 45: /* main: PREBUILD num32  */
#line 313 "cmd/sandboxd/parse.y"
                                 {
			gbegin()->prebuild = (yyvsp[0].v.number);
			gcommit();
		}
#line 1983 "build-old/cmd/sandboxd/parse.c"
    break;

  case 46: /* main: UIDRANGE num32 num32  */
#line 317 "cmd/sandboxd/parse.y"
                                       {
			gbegin()->uid_base = (yyvsp[-1].v.number);
			conf->global.uid_count = (yyvsp[0].v.number);
			gcommit();
		}
#line 1993 "build-old/cmd/sandboxd/parse.c"
    break;

  case 50: /* genvblock: '{' genvlist error '}'  */
#line 327 "cmd/sandboxd/parse.y"
                                                { yyerrok; }
#line 1999 "build-old/cmd/sandboxd/parse.c"
    break;

  case 54: /* genvlist: genvlist error sep  */
#line 333 "cmd/sandboxd/parse.y"
                                        { yyerrok; }
#line 2005 "build-old/cmd/sandboxd/parse.c"
    break;

  case 55: /* $@1: %empty  */
#line 336 "cmd/sandboxd/parse.y"
                       { listctx = L_SYSENV; }
#line 2011 "build-old/cmd/sandboxd/parse.c"
    break;

  case 57: /* genvopt: PREFIX string  */
#line 337 "cmd/sandboxd/parse.y"
                                {
			set_gstr(conf->global.env_prefix,
			    sizeof(conf->global.env_prefix), (yyvsp[0].v.string), "env prefix");
		}
#line 2020 "build-old/cmd/sandboxd/parse.c"
    break;

  case 58: /* genvopt: BUDGET size  */
#line 341 "cmd/sandboxd/parse.y"
                              {
			if ((yyvsp[0].v.u64) > UINT32_MAX)
				yyerror("env budget too large");
			else {
				gbegin()->env_budget = (yyvsp[0].v.u64);
				gcommit();
			}
		}
#line 2033 "build-old/cmd/sandboxd/parse.c"
    break;

  case 59: /* names: string  */
#line 351 "cmd/sandboxd/parse.y"
                                                { add_listitem((yyvsp[0].v.string)); }
#line 2039 "build-old/cmd/sandboxd/parse.c"
    break;

  case 60: /* names: names string  */
#line 352 "cmd/sandboxd/parse.y"
                                                { add_listitem((yyvsp[0].v.string)); }
#line 2045 "build-old/cmd/sandboxd/parse.c"
    break;

  case 61: /* policy: policyhead '{' plist '}'  */
#line 355 "cmd/sandboxd/parse.y"
                                                        { policy_end(); }
#line 2051 "build-old/cmd/sandboxd/parse.c"
    break;

  case 62: /* policy: policyhead '{' plist pstmt '}'  */
#line 356 "cmd/sandboxd/parse.y"
                                                        { policy_end(); }
#line 2057 "build-old/cmd/sandboxd/parse.c"
    break;

  case 63: /* policy: policyhead '{' plist error '}'  */
#line 357 "cmd/sandboxd/parse.y"
                                                 {
			yyerrok;
			policy_end();
		}
#line 2066 "build-old/cmd/sandboxd/parse.c"
    break;

  case 64: /* policyhead: POLICY string optnl  */
#line 363 "cmd/sandboxd/parse.y"
                                                { policy_begin((yyvsp[-1].v.string)); }
#line 2072 "build-old/cmd/sandboxd/parse.c"
    break;

  case 68: /* plist: plist error sep  */
#line 369 "cmd/sandboxd/parse.y"
                                        { yyerrok; }
#line 2078 "build-old/cmd/sandboxd/parse.c"
    break;

  case 69: /* pstmt: NETWORK optnl netblock  */
#line 372 "cmd/sandboxd/parse.y"
                                         {
			pbegin()->has_network = 1;
			pcommit(1);
		}
#line 2087 "build-old/cmd/sandboxd/parse.c"
    break;

  case 74: /* pstmt: RESTART restartmode  */
#line 380 "cmd/sandboxd/parse.y"
                                                { set_restart((yyvsp[0].v.number), NULL, NULL); }
#line 2093 "build-old/cmd/sandboxd/parse.c"
    break;

  case 75: /* pstmt: RESTART restartmode MAX NUMBER PER time  */
#line 381 "cmd/sandboxd/parse.y"
                                                          {
			set_restart((yyvsp[-4].v.number), &(yyvsp[-2].v.number), &(yyvsp[0].v.u64));
		}
#line 2101 "build-old/cmd/sandboxd/parse.c"
    break;

  case 76: /* pstmt: WATCHDOG time  */
#line 384 "cmd/sandboxd/parse.y"
                                                { set_watchdog((yyvsp[0].v.u64)); }
#line 2107 "build-old/cmd/sandboxd/parse.c"
    break;

  case 77: /* restartmode: NEVER  */
#line 387 "cmd/sandboxd/parse.y"
                                                { (yyval.v.number) = RESTART_NEVER; }
#line 2113 "build-old/cmd/sandboxd/parse.c"
    break;

  case 78: /* restartmode: ONFAILURE  */
#line 388 "cmd/sandboxd/parse.y"
                                                { (yyval.v.number) = RESTART_ON_FAILURE; }
#line 2119 "build-old/cmd/sandboxd/parse.c"
    break;

  case 79: /* restartmode: ALWAYS  */
#line 389 "cmd/sandboxd/parse.y"
                                                { (yyval.v.number) = RESTART_ALWAYS; }
#line 2125 "build-old/cmd/sandboxd/parse.c"
    break;

  case 80: /* service: servicehead '{' svclist '}'  */
#line 392 "cmd/sandboxd/parse.y"
                                                { service_end(); }
#line 2131 "build-old/cmd/sandboxd/parse.c"
    break;

  case 81: /* service: servicehead '{' svclist svcopt '}'  */
#line 393 "cmd/sandboxd/parse.y"
                                                        { service_end(); }
#line 2137 "build-old/cmd/sandboxd/parse.c"
    break;

  case 82: /* service: servicehead '{' svclist error '}'  */
#line 394 "cmd/sandboxd/parse.y"
                                                    {
			yyerrok;
			service_end();
		}
#line 2146 "build-old/cmd/sandboxd/parse.c"
    break;

  case 83: /* servicehead: SERVICE string optnl  */
#line 400 "cmd/sandboxd/parse.y"
                                                { service_begin((yyvsp[-1].v.string)); }
#line 2152 "build-old/cmd/sandboxd/parse.c"
    break;

  case 87: /* svclist: svclist error sep  */
#line 406 "cmd/sandboxd/parse.y"
                                        { yyerrok; }
#line 2158 "build-old/cmd/sandboxd/parse.c"
    break;

  case 88: /* svcopt: POLICY string  */
#line 409 "cmd/sandboxd/parse.y"
                                                { service_policy((yyvsp[0].v.string)); }
#line 2164 "build-old/cmd/sandboxd/parse.c"
    break;

  case 89: /* $@2: %empty  */
#line 410 "cmd/sandboxd/parse.y"
                          { service_command(); }
#line 2170 "build-old/cmd/sandboxd/parse.c"
    break;

  case 91: /* svcargs: string  */
#line 413 "cmd/sandboxd/parse.y"
                                                { service_arg((yyvsp[0].v.string)); }
#line 2176 "build-old/cmd/sandboxd/parse.c"
    break;

  case 92: /* svcargs: svcargs string  */
#line 414 "cmd/sandboxd/parse.y"
                                                { service_arg((yyvsp[0].v.string)); }
#line 2182 "build-old/cmd/sandboxd/parse.c"
    break;

  case 95: /* netblock: '{' netlist error '}'  */
#line 419 "cmd/sandboxd/parse.y"
                                        { yyerrok; }
#line 2188 "build-old/cmd/sandboxd/parse.c"
    break;

  case 99: /* netlist: netlist error sep  */
#line 425 "cmd/sandboxd/parse.y"
                                        { yyerrok; }
#line 2194 "build-old/cmd/sandboxd/parse.c"
    break;

  case 100: /* netopt: EGRESS DENY  */
#line 428 "cmd/sandboxd/parse.y"
                              {
			pbegin()->egress = EGRESS_DENY;
			pcommit(1);
		}
#line 2203 "build-old/cmd/sandboxd/parse.c"
    break;

  case 101: /* netopt: EGRESS ALLOW  */
#line 432 "cmd/sandboxd/parse.y"
                               {
			pbegin()->egress = EGRESS_ALLOW;
			pcommit(1);
		}
#line 2212 "build-old/cmd/sandboxd/parse.c"
    break;

  case 102: /* netopt: BLOCKALL  */
#line 436 "cmd/sandboxd/parse.y"
                           {
			pbegin()->block_all = 1;
			pcommit(1);
		}
#line 2221 "build-old/cmd/sandboxd/parse.c"
    break;

  case 103: /* netopt: INBOUND DENY  */
#line 440 "cmd/sandboxd/parse.y"
                                                { set_inbound(INB_DENY); }
#line 2227 "build-old/cmd/sandboxd/parse.c"
    break;

  case 104: /* netopt: INBOUND ALLOW  */
#line 441 "cmd/sandboxd/parse.y"
                                                { set_inbound(INB_ANY); }
#line 2233 "build-old/cmd/sandboxd/parse.c"
    break;

  case 105: /* $@3: %empty  */
#line 442 "cmd/sandboxd/parse.y"
                                     { set_inbound(INB_FROM); }
#line 2239 "build-old/cmd/sandboxd/parse.c"
    break;

  case 107: /* netopt: ALLOW STRING PORT port proto  */
#line 443 "cmd/sandboxd/parse.y"
                                                { add_host((yyvsp[-3].v.string), (yyvsp[-1].v.number), (yyvsp[0].v.number)); }
#line 2245 "build-old/cmd/sandboxd/parse.c"
    break;

  case 108: /* netopt: ALLOW CIDR STRING  */
#line 444 "cmd/sandboxd/parse.y"
                                        { add_cidr(NET_RULE_CIDR, (yyvsp[0].v.string)); }
#line 2251 "build-old/cmd/sandboxd/parse.c"
    break;

  case 109: /* netopt: ALLOW NAME string PORT port proto  */
#line 445 "cmd/sandboxd/parse.y"
                                                    {
			add_name((yyvsp[-3].v.string), (yyvsp[-1].v.number), (yyvsp[0].v.number));
		}
#line 2259 "build-old/cmd/sandboxd/parse.c"
    break;

  case 112: /* fromaddrs: STRING  */
#line 454 "cmd/sandboxd/parse.y"
                                        { add_cidr(NET_RULE_INBOUND_FROM, (yyvsp[0].v.string)); }
#line 2265 "build-old/cmd/sandboxd/parse.c"
    break;

  case 113: /* fromaddrs: fromaddrs optcomma STRING  */
#line 455 "cmd/sandboxd/parse.y"
                                            {
			add_cidr(NET_RULE_INBOUND_FROM, (yyvsp[0].v.string));
		}
#line 2273 "build-old/cmd/sandboxd/parse.c"
    break;

  case 118: /* penvblock: '{' penvlist error '}'  */
#line 466 "cmd/sandboxd/parse.y"
                                                { yyerrok; }
#line 2279 "build-old/cmd/sandboxd/parse.c"
    break;

  case 122: /* penvlist: penvlist error sep  */
#line 472 "cmd/sandboxd/parse.y"
                                        { yyerrok; }
#line 2285 "build-old/cmd/sandboxd/parse.c"
    break;

  case 123: /* $@4: %empty  */
#line 475 "cmd/sandboxd/parse.y"
                       { listctx = L_PASS; }
#line 2291 "build-old/cmd/sandboxd/parse.c"
    break;

  case 125: /* penvopt: SET string string  */
#line 476 "cmd/sandboxd/parse.y"
                                        { add_env(ENV_RULE_SET, (yyvsp[-1].v.string), (yyvsp[0].v.string)); }
#line 2297 "build-old/cmd/sandboxd/parse.c"
    break;

  case 126: /* $@5: %empty  */
#line 477 "cmd/sandboxd/parse.y"
                        { listctx = L_UNSET; }
#line 2303 "build-old/cmd/sandboxd/parse.c"
    break;

  case 130: /* secblock: '{' seclist error '}'  */
#line 482 "cmd/sandboxd/parse.y"
                                        { yyerrok; }
#line 2309 "build-old/cmd/sandboxd/parse.c"
    break;

  case 134: /* seclist: seclist error sep  */
#line 488 "cmd/sandboxd/parse.y"
                                        { yyerrok; }
#line 2315 "build-old/cmd/sandboxd/parse.c"
    break;

  case 135: /* $@6: %empty  */
#line 491 "cmd/sandboxd/parse.y"
                         { listctx = L_PERMIT; }
#line 2321 "build-old/cmd/sandboxd/parse.c"
    break;

  case 137: /* $@7: %empty  */
#line 492 "cmd/sandboxd/parse.y"
                         { listctx = L_EXPOSE; }
#line 2327 "build-old/cmd/sandboxd/parse.c"
    break;

  case 141: /* limblock: '{' limlist error '}'  */
#line 497 "cmd/sandboxd/parse.y"
                                        { yyerrok; }
#line 2333 "build-old/cmd/sandboxd/parse.c"
    break;

  case 145: /* limlist: limlist error sep  */
#line 503 "cmd/sandboxd/parse.y"
                                        { yyerrok; }
#line 2339 "build-old/cmd/sandboxd/parse.c"
    break;

  case 146: /* limopt: MEMORY size  */
#line 506 "cmd/sandboxd/parse.y"
                              {
			pbegin()->memory = (yyvsp[0].v.u64);
			pcommit(1);
		}
#line 2348 "build-old/cmd/sandboxd/parse.c"
    break;

  case 147: /* limopt: PIDS num32  */
#line 510 "cmd/sandboxd/parse.y"
                             {
			pbegin()->pids = (yyvsp[0].v.number);
			pcommit(1);
		}
#line 2357 "build-old/cmd/sandboxd/parse.c"
    break;

  case 148: /* limopt: CPU percent  */
#line 514 "cmd/sandboxd/parse.y"
                              {
			pbegin()->cpu_percent = (yyvsp[0].v.number);
			pcommit(1);
		}
#line 2366 "build-old/cmd/sandboxd/parse.c"
    break;

  case 149: /* limopt: TIMEOUT time  */
#line 518 "cmd/sandboxd/parse.y"
                                                { set_timeout(&(yyvsp[0].v.u64), NULL); }
#line 2372 "build-old/cmd/sandboxd/parse.c"
    break;

  case 150: /* limopt: TIMEOUT time MAX time  */
#line 519 "cmd/sandboxd/parse.y"
                                                { set_timeout(&(yyvsp[-2].v.u64), &(yyvsp[0].v.u64)); }
#line 2378 "build-old/cmd/sandboxd/parse.c"
    break;

  case 151: /* limopt: TIMEOUT MAX time  */
#line 520 "cmd/sandboxd/parse.y"
                                                { set_timeout(NULL, &(yyvsp[0].v.u64)); }
#line 2384 "build-old/cmd/sandboxd/parse.c"
    break;

  case 152: /* limopt: STDOUT size  */
#line 521 "cmd/sandboxd/parse.y"
                              {
			pbegin()->stdout_cap = (yyvsp[0].v.u64);
			pcommit(1);
		}
#line 2393 "build-old/cmd/sandboxd/parse.c"
    break;

  case 153: /* limopt: STDERR size  */
#line 525 "cmd/sandboxd/parse.y"
                              {
			pbegin()->stderr_cap = (yyvsp[0].v.u64);
			pcommit(1);
		}
#line 2402 "build-old/cmd/sandboxd/parse.c"
    break;

  case 154: /* limopt: WORKSPACE size  */
#line 529 "cmd/sandboxd/parse.y"
                                 {
			pbegin()->workspace = (yyvsp[0].v.u64);
			pcommit(1);
		}
#line 2411 "build-old/cmd/sandboxd/parse.c"
    break;

  case 155: /* limopt: TMP size  */
#line 533 "cmd/sandboxd/parse.y"
                           {
			pbegin()->tmp_size = (yyvsp[0].v.u64);
			pcommit(1);
		}
#line 2420 "build-old/cmd/sandboxd/parse.c"
    break;

  case 156: /* limopt: FSIZE size  */
#line 537 "cmd/sandboxd/parse.y"
                             {
			pbegin()->fsize = (yyvsp[0].v.u64);
			pcommit(1);
		}
#line 2429 "build-old/cmd/sandboxd/parse.c"
    break;

  case 157: /* limopt: NOFILE num32  */
#line 541 "cmd/sandboxd/parse.y"
                               {
			pbegin()->nofile = (yyvsp[0].v.number);
			pcommit(1);
		}
#line 2438 "build-old/cmd/sandboxd/parse.c"
    break;

  case 158: /* limopt: GRACE time  */
#line 545 "cmd/sandboxd/parse.y"
                             {
			if (msecs(&pbegin()->grace_ms, (yyvsp[0].v.u64), "grace") == 0)
				pcommit(1);
		}
#line 2447 "build-old/cmd/sandboxd/parse.c"
    break;

  case 161: /* fsblock: '{' fslist error '}'  */
#line 553 "cmd/sandboxd/parse.y"
                                        { yyerrok; }
#line 2453 "build-old/cmd/sandboxd/parse.c"
    break;

  case 165: /* fslist: fslist error sep  */
#line 559 "cmd/sandboxd/parse.y"
                                        { yyerrok; }
#line 2459 "build-old/cmd/sandboxd/parse.c"
    break;

  case 166: /* fsopt: ROOT string  */
#line 562 "cmd/sandboxd/parse.y"
                              {
			set_pstr(curpol->m.root, sizeof(curpol->m.root), (yyvsp[0].v.string),
			    "filesystem root");
		}
#line 2468 "build-old/cmd/sandboxd/parse.c"
    break;

  case 167: /* $@8: %empty  */
#line 566 "cmd/sandboxd/parse.y"
                       { listctx = L_READ; }
#line 2474 "build-old/cmd/sandboxd/parse.c"
    break;

  case 169: /* $@9: %empty  */
#line 567 "cmd/sandboxd/parse.y"
                        { listctx = L_WRITE; }
#line 2480 "build-old/cmd/sandboxd/parse.c"
    break;

  case 171: /* $@10: %empty  */
#line 568 "cmd/sandboxd/parse.y"
                       { listctx = L_EXEC; }
#line 2486 "build-old/cmd/sandboxd/parse.c"
    break;

  case 173: /* fsopt: KEEPFAILED  */
#line 569 "cmd/sandboxd/parse.y"
                             {
			pbegin()->keep_failed = 1;
			pcommit(1);
		}
#line 2495 "build-old/cmd/sandboxd/parse.c"
    break;


#line 2499 "build-old/cmd/sandboxd/parse.c"

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

#line 575 "cmd/sandboxd/parse.y"


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
	{ "inbound",		INBOUND },
	{ "include",		INCLUDE },
	{ "interface-prefix",	IFPREFIX },
	{ "keep-failed",	KEEPFAILED },
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
	{ "pin-floor",		PINFLOOR },
	{ "policy",		POLICY },
	{ "port",		PORT },
	{ "prebuild",		PREBUILD },
	{ "prefix",		PREFIX },
	{ "read",		READ },
	{ "resolver",		RESOLVER },
	{ "restart",		RESTART },
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
		log_warnx("%s:%d: unknown keyword \"%s\"", f, l, firsttext);
		return;
	}
	switch (lastkind) {
	case TK_ERROR:		/* the lexer said why */
		break;
	case TK_KEYWORD:
		if (laststmtpos == 0)
			log_warnx("%s:%d: \"%s\" is not allowed here", f, l,
			    lasttext);
		else
			log_warnx("%s:%d: syntax error at \"%s\"", f, l,
			    lasttext);
		break;
	case TK_WORD:
	case TK_QUOTED:
	case TK_NUMBER:
		log_warnx("%s:%d: syntax error at \"%s\"", f, l, lasttext);
		break;
	case TK_NEWLINE:
		log_warnx("%s:%d: syntax error at end of line", f, l);
		break;
	case TK_EOF:
		log_warnx("%s:%d: syntax error at end of file", f, l);
		break;
	case TK_CHAR:
		log_warnx("%s:%d: syntax error at '%s'", f, l, lasttext);
		break;
	}
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
	log_warnx("%s:%d: %s", file->name, yylval.lineno, msg);
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

/* Milliseconds from seconds, or from ms, s, m or h. */
static int
parse_time(const char *s, uint64_t *ms)
{
	static const struct {
		const char	*sfx;
		uint64_t	 mul;
	} units[] = {
		{ "", 1000 }, { "ms", 1 }, { "s", 1000 }, { "m", 60000 },
		{ "h", 3600000 }
	};
	uint64_t	 v;
	size_t		 i;
	char		*ep;

	if (parse_u64(s, &v, &ep) == 0)
		for (i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
			if (strcmp(ep, units[i].sfx) != 0)
				continue;
			if (v > UINT64_MAX / units[i].mul) {
				yyerror("\"%s\": time too large", s);
				return (-1);
			}
			*ms = v * units[i].mul;
			return (0);
		}
	yyerror("\"%s\": bad time, want a number with an optional ms, s, "
	    "m or h suffix", s);
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
			log_warnx("%s: service \"%s\": no such policy \"%s\"",
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
	curpol = NULL;
	curdetached = 0;
	lastkind = TK_NEWLINE;
	stmtpos = 0;
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
		log_warnx("%s: %s", filename, err);
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
	conf = NULL;
	if (errors != 0) {
		conf_free(c);
		return (NULL);
	}
	return (c);
}
