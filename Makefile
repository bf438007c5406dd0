# sandboxd -- see README.  Everything is built into build/.

PREFIX?=	/usr/local
SBINDIR?=	${PREFIX}/sbin
BINDIR?=	${PREFIX}/bin
LIBEXECDIR?=	${PREFIX}/libexec/sandboxd
MANDIR?=	${PREFIX}/share/man
SYSCONFDIR?=	/etc
DESTDIR?=

B?=		build
CC?=		cc
YACC=		bison -y
PKGS=		libbsd-overlay libseccomp libcap-ng libevent jansson libnftnl libmnl
PKG_CFLAGS!=	pkg-config --cflags ${PKGS} 2>/dev/null || true
PKG_LIBS!=	pkg-config --libs ${PKGS} 2>/dev/null || true
CFLAGS?=	-O2 -g
override CFLAGS+=	-std=gnu11 -Wall -Wextra -Wshadow -Wpointer-arith \
		-Wmissing-prototypes -Wstrict-prototypes -Wno-unused-parameter \
		-Wformat=2 -Werror -D_GNU_SOURCE -Ilib ${PKG_CFLAGS}
LDLIBS+=	${PKG_LIBS}
# sandboxctl is linked static: run by the thousand (make bench, CI
# jobs), half its CPU went to the dynamic loader.  asan builds unset it.
CTL_LDFLAGS?=	-static
CTL_LIBS!=	pkg-config --static --libs libbsd-overlay jansson 2>/dev/null || true

LIB_SRCS:=	$(wildcard lib/*.c)
LIB_OBJS:=	$(LIB_SRCS:%.c=$B/%.o)
DAEMONS=	sandboxd netd envd runnerd dnspind
PROGS=		${DAEMONS} sandboxctl
REGRESS_C:=	$(wildcard regress/*/*_test.c)
REGRESS_BINS:=	$(REGRESS_C:regress/%.c=$B/regress/%)

all: $(PROGS:%=$B/%) ${REGRESS_BINS}

$B/lib/%.o: lib/%.c $(wildcard lib/*.h)
	@mkdir -p $(@D)
	${CC} ${CFLAGS} -c -o $@ $<

$B/libsandboxd.a: ${LIB_OBJS}
	rm -f $@
	ar rcs $@ ${LIB_OBJS}

# parse.y is turned into C beside the other objects.
$B/cmd/sandboxd/parse.c: cmd/sandboxd/parse.y
	@mkdir -p $(@D)
	${YACC} -o $@ $<

$B/cmd/sandboxd/parse.o: $B/cmd/sandboxd/parse.c $(wildcard lib/*.h cmd/sandboxd/*.h)
	${CC} ${CFLAGS} -Wno-error=unused-but-set-variable -Icmd/sandboxd -c -o $@ $<

$B/cmd/%.o: cmd/%.c $(wildcard lib/*.h cmd/*/*.h)
	@mkdir -p $(@D)
	${CC} ${CFLAGS} -Icmd/$(*D) -c -o $@ $<

define prog_rule
$$B/$(1): $$(patsubst %.c,$$B/%.o,$$(wildcard cmd/$(1)/*.c)) \
    $$(if $$(wildcard cmd/$(1)/parse.y),$$B/cmd/$(1)/parse.o) $$B/libsandboxd.a
	$${CC} $${LDFLAGS} -o $$@ $$^ $${LDLIBS}
endef
$(foreach p,${DAEMONS},$(eval $(call prog_rule,$(p))))

$B/sandboxctl: $(patsubst %.c,$B/%.o,$(wildcard cmd/sandboxctl/*.c)) \
    $B/libsandboxd.a
	${CC} ${LDFLAGS} ${CTL_LDFLAGS} -o $@ $^ ${CTL_LIBS}

# Tests that #include a program's sources rebuild when those change.
$B/regress/runnerd/sandbox_test: $(wildcard cmd/runnerd/*.[ch])
$B/regress/runnerd/state_test: $(wildcard cmd/runnerd/*.[ch])
$B/regress/workspace/workspace_test: $(wildcard cmd/runnerd/workspace.[ch])
$B/regress/netd/netd_test: $(wildcard cmd/netd/*.[ch])
$B/regress/netd/dnsch_test: $(wildcard cmd/netd/*.[ch])
$B/regress/dnspind/dns_test: $(wildcard cmd/dnspind/*.[ch])

# The C tests that drive one end of a channel share its harness.
$B/regress/netd/dnsch_test $B/regress/peerch/peerch_test: \
    $B/regress/lib/chpeer.o

$B/regress/lib/%.o: regress/lib/%.c $(wildcard regress/lib/*.h lib/*.h)
	@mkdir -p $(@D)
	${CC} ${CFLAGS} -c -o $@ $<

$B/regress/%: regress/%.c $B/libsandboxd.a
	@mkdir -p $(@D)
	${CC} ${CFLAGS} ${LDFLAGS} -o $@ $< $(filter %.o,$^) \
	    $B/libsandboxd.a ${LDLIBS}

deps:
	@sh regress/lib/install-deps.sh

bench-deps:
	@sh regress/lib/install-deps.sh bench

# libFuzzer targets for the parsers that face untrusted input, each run
# for FUZZ_SECONDS.
FUZZ_SECONDS?=	30
FUZZ_CC=	clang -g -O1 -fsanitize=fuzzer,address,undefined -D_GNU_SOURCE \
		-Ilib ${PKG_CFLAGS}
# The message table and every validator it names (lib/msgtab.c).
MSGTAB_SRCS=	lib/msgtab.c lib/sbx_msg.c lib/fileop.c lib/label.c lib/conf.c \
		lib/utf8.c lib/net_msg.c lib/env_msg.c lib/dns_msg.c lib/log.c
fuzz: deps
	${MAKE} all
	@mkdir -p $B/fuzz
	${FUZZ_CC} -o $B/fuzz/fuzz_imsg regress/fuzz/fuzz_imsg.c lib/imsg.c lib/fdguard.c \
	    ${MSGTAB_SRCS} ${PKG_LIBS}
	${FUZZ_CC} -o $B/fuzz/fuzz_sbx_msg regress/fuzz/fuzz_sbx_msg.c \
	    ${MSGTAB_SRCS} ${PKG_LIBS}
	${FUZZ_CC} -Icmd/envd -o $B/fuzz/fuzz_broker \
	    regress/fuzz/fuzz_broker.c cmd/envd/broker.c cmd/envd/rpc.c \
	    lib/conf.c lib/fdguard.c lib/log.c lib/utf8.c ${PKG_LIBS}
	${FUZZ_CC} -Icmd/sandboxd -o $B/fuzz/fuzz_config \
	    regress/fuzz/fuzz_config.c $B/cmd/sandboxd/parse.c \
	    cmd/sandboxd/printconf.c lib/conf.c lib/duration.c lib/log.c \
	    lib/utf8.c ${PKG_LIBS}
	${FUZZ_CC} -Icmd/dnspind -o $B/fuzz/fuzz_dns regress/fuzz/fuzz_dns.c \
	    cmd/dnspind/dns.c cmd/dnspind/dns_wire.c cmd/dnspind/dns_answer.c \
	    cmd/dnspind/dns_name.c lib/addrclass.c ${PKG_LIBS}
	@mkdir -p $B/fuzz/corpus-fuzz_config
	cp regress/config/ok/*.in etc/sandboxd.conf $B/fuzz/corpus-fuzz_config/
	@mkdir -p $B/fuzz/corpus-fuzz_broker
	cp regress/fuzz/broker/*.frame $B/fuzz/corpus-fuzz_broker/
	@mkdir -p $B/fuzz/corpus-fuzz_dns
	cp regress/fuzz/dns/*.bin $B/fuzz/corpus-fuzz_dns/
	for f in fuzz_imsg fuzz_sbx_msg fuzz_broker fuzz_config fuzz_dns; do \
		mkdir -p $B/fuzz/corpus-$$f; \
		$B/fuzz/$$f -max_total_time=${FUZZ_SECONDS} \
		    $B/fuzz/corpus-$$f || exit 1; done

# regress/host/guest/ runs only inside the VM (make test-host); the
# host-side tests beside it, regress/host/*.t, run here too.
TESTS=		$(filter-out regress/host/,$(wildcard regress/*/)) \
		$(wildcard regress/host/*.t)

# cgroup_reap.py: the cgroups of suites killed before their cleanup
# (only those whose suite is gone; others may run meanwhile).
test: deps
	${MAKE} all
	python3 regress/lib/cgroup_reap.py
	prove -r ${TESTS}

# The VM tier: a Debian 12 guest (systemd, cgroup v2, Debian's kernel),
# built once and cached; see regress/host/vm-run.
test-host:
	@sh regress/lib/install-deps.sh host
	${MAKE} all
	sh regress/host/test-host.sh

asan: deps
	${MAKE} B=build-asan CFLAGS="-O1 -g -fsanitize=address,undefined \
	    -fno-omit-frame-pointer -fno-sanitize-recover=undefined \
	    -DSANDBOXD_ASAN -Wno-format-overflow" LDFLAGS="-fsanitize=address,undefined" \
	    CTL_LDFLAGS= all
	python3 regress/lib/cgroup_reap.py
	SANDBOXD_BUILD=build-asan ASAN_OPTIONS=detect_leaks=0 prove -r ${TESTS}

# The compat corpus alone: workloads bare and under sandboxd (issue 15).
compat: deps
	${MAKE} all
	COMPAT_FULL=1 prove -r regress/compat/

lint: all
	mandoc -Tlint -Wwarning man/*.[0-9]

demo: deps
	${MAKE} all
	sh regress/lib/demo.sh

bench: bench-deps
	${MAKE} all
	sh regress/bench/bench.sh

install: all
	install -d ${DESTDIR}${SBINDIR} ${DESTDIR}${BINDIR} \
	    ${DESTDIR}${LIBEXECDIR} ${DESTDIR}${MANDIR}/man5 \
	    ${DESTDIR}${MANDIR}/man8 ${DESTDIR}${SYSCONFDIR} \
	    ${DESTDIR}/lib/systemd/system ${DESTDIR}/usr/lib/sysusers.d \
	    ${DESTDIR}/usr/lib/tmpfiles.d ${DESTDIR}/etc/init.d
	install -m 0755 $B/sandboxd ${DESTDIR}${SBINDIR}/sandboxd
	install -m 0755 $B/sandboxctl ${DESTDIR}${BINDIR}/sandboxctl
	for p in netd envd runnerd dnspind; do \
		install -m 0755 $B/$$p ${DESTDIR}${LIBEXECDIR}/$$p; done
	install -m 0644 man/*.5 ${DESTDIR}${MANDIR}/man5/
	install -m 0644 man/*.8 ${DESTDIR}${MANDIR}/man8/
	[ -e ${DESTDIR}${SYSCONFDIR}/sandboxd.conf ] || \
	    install -m 0644 etc/sandboxd.conf ${DESTDIR}${SYSCONFDIR}/
	sed -e 's|@SBINDIR@|${SBINDIR}|g' -e 's|@BINDIR@|${BINDIR}|g' \
	    rc/sandboxd.service > ${DESTDIR}/lib/systemd/system/sandboxd.service
	install -m 0644 rc/sandboxd.sysusers \
	    ${DESTDIR}/usr/lib/sysusers.d/sandboxd.conf
	install -m 0644 rc/sandboxd.tmpfiles \
	    ${DESTDIR}/usr/lib/tmpfiles.d/sandboxd.conf
	sed -e 's|@SBINDIR@|${SBINDIR}|g' -e 's|@BINDIR@|${BINDIR}|g' \
	    rc/sandboxd.init > ${DESTDIR}/etc/init.d/sandboxd
	chmod 0755 ${DESTDIR}/etc/init.d/sandboxd
	[ -n "${DESTDIR}" ] || sh rc/sandboxd-users.sh

# The config, the users and the state directory stay (README).
uninstall:
	rm -f ${DESTDIR}${SBINDIR}/sandboxd ${DESTDIR}${BINDIR}/sandboxctl
	for p in netd envd runnerd dnspind; do \
		rm -f ${DESTDIR}${LIBEXECDIR}/$$p; done
	-rmdir ${DESTDIR}${LIBEXECDIR}
	for m in man/*.[58]; do \
		rm -f ${DESTDIR}${MANDIR}/man$${m##*.}/$${m#man/}; done
	rm -f ${DESTDIR}/lib/systemd/system/sandboxd.service \
	    ${DESTDIR}/usr/lib/sysusers.d/sandboxd.conf \
	    ${DESTDIR}/usr/lib/tmpfiles.d/sandboxd.conf \
	    ${DESTDIR}/etc/init.d/sandboxd

clean:
	rm -rf build build-asan

.PHONY: all deps bench-deps test test-host asan compat lint demo bench fuzz \
	install uninstall clean
