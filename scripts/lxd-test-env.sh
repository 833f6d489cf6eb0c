#!/usr/bin/env bash
# Set up a local LXD daemon for converge's live LXD tests (Debian 12, as root).
#
# Idempotent: every step checks the current state first, so running it again
# only re-asserts the settings. Writes the facts tests need to
# /tmp/converge-lxd-env (KEY=value lines, sourceable by sh).
#
# Network: everything stays on loopback and the test bridge convergebr0
# (198.18.0.1/24, no NAT, no routing, no IPv6, DNS never forwarded upstream).
#
# Env knobs: LXD_ENV_FILE (default /tmp/converge-lxd-env),
#            LXD_ENV_SKIP_SMOKE=1 (skip the launch/IPv4 self-test),
#            LXD_DAEMON_LOG (default /var/log/converge-lxd.log).
set -euo pipefail

BRIDGE=convergebr0
BRIDGE_ADDR=198.18.0.1/24
POOL=default
IMAGE_ALIAS=busybox
HTTPS_ADDR=127.0.0.1:8443
TRUST_PASSWORD=converge-test
ENV_FILE=${LXD_ENV_FILE:-/tmp/converge-lxd-env}
DAEMON_LOG=${LXD_DAEMON_LOG:-/var/log/converge-lxd.log}
SMOKE_NAME=converge-envcheck

export DEBIAN_FRONTEND=noninteractive

log() { printf '[lxd-test-env] %s\n' "$*"; }
run() { printf '[lxd-test-env] + %s\n' "$*"; "$@"; }
die() { printf '[lxd-test-env] ERROR: %s\n' "$*" >&2; exit 1; }

[ "$(id -u)" = 0 ] || die "must run as root"

# --- 1. packages ------------------------------------------------------------
# dnsmasq-base: DHCP/DNS on the bridge. nftables: LXD's firewall backend; without
# nft (or iptables) LXD cannot create default bridges, attach ACLs or add forwards.
PKGS=(lxd busybox-static dnsmasq-base nftables)
missing=()
for p in "${PKGS[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  log "installing: ${missing[*]}"
  run apt-get update
  run apt-get install -y --no-install-recommends "${missing[@]}"
else
  log "packages already installed: ${PKGS[*]}"
fi
command -v lxd >/dev/null || die "lxd binary not found after install"

# --- 2. daemon --------------------------------------------------------------
# Which unix socket lxc (and the Go client) will use.
if [ -n "${LXD_DIR:-}" ]; then
  LXD_SOCKET=$LXD_DIR/unix.socket
elif [ -S /var/snap/lxd/common/lxd/unix.socket ] && [ -w /var/snap/lxd/common/lxd/unix.socket ]; then
  LXD_SOCKET=/var/snap/lxd/common/lxd/unix.socket
else
  LXD_SOCKET=/var/lib/lxd/unix.socket
fi

start_lxd() {
  log "starting LXD daemon (log: $DAEMON_LOG)"
  # setsid + nohup: the daemon must outlive this script and its process group.
  # The proxy variables point at a closed loopback port so the daemon's own
  # outbound HTTP (the daily instance-types refresh from
  # images.linuxcontainers.org) fails locally instead of leaving the host.
  printf '[lxd-test-env] + lxd --group root >>%s 2>&1 &\n' "$DAEMON_LOG"
  env https_proxy=http://127.0.0.1:9 http_proxy=http://127.0.0.1:9 \
      HTTPS_PROXY=http://127.0.0.1:9 HTTP_PROXY=http://127.0.0.1:9 no_proxy= NO_PROXY= \
    setsid nohup lxd --group root >>"$DAEMON_LOG" 2>&1 </dev/null &
  run lxd waitready --timeout=60 || { tail -n 50 "$DAEMON_LOG" >&2 || true; die "LXD did not become ready"; }
}
if [ -S "$LXD_SOCKET" ] && lxd waitready --timeout=5 >/dev/null 2>&1; then
  log "LXD daemon already running ($LXD_SOCKET)"
else
  start_lxd
fi
# LXD picks its firewall driver at startup. A daemon started before nftables was
# installed sits on "xtables" with no iptables binary: restart it once.
fw=$(lxc info | awk '$1=="firewall:"{print $2; exit}')
case "$fw" in nftables) fwcmd=nft ;; *) fwcmd=iptables ;; esac
if command -v "$fwcmd" >/dev/null; then
  log "LXD firewall driver: $fw"
else
  log "LXD firewall driver is '$fw' but '$fwcmd' is missing; restarting LXD"
  if command -v systemctl >/dev/null && systemctl is-active --quiet lxd.service 2>/dev/null; then
    run systemctl restart lxd.service
    run lxd waitready --timeout=60
  else
    run lxd shutdown
    start_lxd
  fi
  fw=$(lxc info | awk '$1=="firewall:"{print $2; exit}')
  log "LXD firewall driver now: $fw"
fi
[ -S "$LXD_SOCKET" ] || die "LXD is up but $LXD_SOCKET is not a socket"
log "LXD $(lxd --version) ready on $LXD_SOCKET"

# --- 3. storage pool + root disk --------------------------------------------
if lxc storage show "$POOL" >/dev/null 2>&1; then
  log "storage pool '$POOL' exists ($(lxc storage show "$POOL" | awk '$1=="driver:"{print $2}') driver)"
else
  run lxc storage create "$POOL" dir
fi
if lxc profile device get default root pool >/dev/null 2>&1; then
  cur=$(lxc profile device get default root pool)
  if [ "$cur" != "$POOL" ]; then run lxc profile device set default root pool "$POOL"; fi
  log "default profile root disk on pool '$POOL'"
else
  run lxc profile device add default root disk path=/ pool="$POOL"
fi

# --- 4. bridge + default nic --------------------------------------------------
# raw.dnsmasq=no-resolv: dnsmasq never forwards DNS queries off the host.
NET_CFG=(ipv4.address="$BRIDGE_ADDR" ipv4.nat=false ipv4.routing=false ipv6.address=none
         raw.dnsmasq=no-resolv)
if lxc network show "$BRIDGE" >/dev/null 2>&1; then
  managed=$(lxc network list --format csv | awk -F, -v n="$BRIDGE" '$1==n{print $3}')
  [ "$managed" = YES ] || die "interface $BRIDGE exists but is not an LXD-managed network; refusing to touch it"
  log "network '$BRIDGE' exists; asserting its config"
  for kv in "${NET_CFG[@]}"; do
    k=${kv%%=*}; v=${kv#*=}
    if [ "$(lxc network get "$BRIDGE" "$k")" != "$v" ]; then run lxc network set "$BRIDGE" "$k" "$v"; fi
  done
else
  if ip link show "$BRIDGE" >/dev/null 2>&1; then
    die "host interface $BRIDGE exists but is not LXD-managed; remove it first"
  fi
  run lxc network create "$BRIDGE" "${NET_CFG[@]}"
fi
nic_net=$(lxc profile device get default eth0 network 2>/dev/null || true)
nic_type=$(lxc profile device get default eth0 type 2>/dev/null || true)
if [ "$nic_type" = nic ] && [ "$nic_net" = "$BRIDGE" ]; then
  log "default profile eth0 already on $BRIDGE"
else
  if [ -n "$nic_type" ]; then run lxc profile device remove default eth0; fi
  run lxc profile device add default eth0 nic network="$BRIDGE" name=eth0
fi

# --- 5. busybox image ---------------------------------------------------------
build_image() {
  local work rootfs tarball
  work=$(mktemp -d /tmp/converge-busybox-image.XXXXXX)
  rootfs=$work/rootfs
  tarball=$work/busybox.tar.gz
  log "building busybox rootfs in $rootfs"
  mkdir -p "$rootfs"/{bin,sbin,usr/bin,usr/sbin,etc,proc,sys,dev,tmp,root,run,var/run,var/log,usr/share/udhcpc}
  chmod 1777 "$rootfs/tmp"
  chmod 0700 "$rootfs/root"
  install -m 0755 /bin/busybox "$rootfs/bin/busybox"
  local applet
  while read -r applet; do
    case "$applet" in
      bin/busybox|sbin/init|linuxrc) continue ;;
    esac
    [ -e "$rootfs/$applet" ] || ln -s /bin/busybox "$rootfs/$applet"
  done < <(/bin/busybox --list-full)

  cat >"$rootfs/sbin/init" <<'EOF'
#!/bin/sh
# Minimal init for converge's LXD test image.
export PATH=/bin:/sbin:/usr/bin:/usr/sbin
mountpoint -q /proc || mount -t proc proc /proc
mountpoint -q /sys || mount -t sysfs sysfs /sys
mountpoint -q /dev || mount -t devtmpfs devtmpfs /dev 2>/dev/null || mount -t tmpfs -o mode=0755 tmpfs /dev
[ -e /dev/null ] || mknod -m 666 /dev/null c 1 3
mkdir -p /dev/pts /dev/shm /run /var/run /tmp
mountpoint -q /dev/pts || mount -t devpts -o newinstance,ptmxmode=0666 devpts /dev/pts 2>/dev/null || true
[ -n "$(hostname)" ] && hostname > /etc/hostname 2>/dev/null
ip link set lo up
if ip link show eth0 >/dev/null 2>&1; then
  ip link set eth0 up
  udhcpc -b -i eth0 -x hostname:"$(hostname)" -p /run/udhcpc.eth0.pid -s /usr/share/udhcpc/default.script
fi
# LXD asks for a clean stop with SIGPWR (reboot: SIGINT); PID 1 must trap them.
trap 'exit 0' PWR TERM INT
while :; do
  sleep 3600 &
  wait $!
done
EOF
  chmod 0755 "$rootfs/sbin/init"

  cat >"$rootfs/usr/share/udhcpc/default.script" <<'EOF'
#!/bin/sh
# udhcpc event script: apply the lease with ip(8).
case "$1" in
  deconfig)
    ip -4 addr flush dev "$interface"
    ip link set "$interface" up
    ;;
  bound|renew)
    ip -4 addr flush dev "$interface"
    ip addr add "$ip/${mask:-24}" ${broadcast:+broadcast "$broadcast"} dev "$interface"
    if [ -n "$router" ]; then
      while ip route del default dev "$interface" 2>/dev/null; do :; done
      for r in $router; do ip route add default via "$r" dev "$interface" && break; done
    fi
    : > /etc/resolv.conf
    [ -n "$domain" ] && echo "search $domain" >> /etc/resolv.conf
    for d in $dns; do echo "nameserver $d" >> /etc/resolv.conf; done
    ;;
esac
exit 0
EOF
  chmod 0755 "$rootfs/usr/share/udhcpc/default.script"

  printf 'root:x:0:0:root:/root:/bin/sh\nnobody:x:65534:65534:nobody:/nonexistent:/bin/false\n' >"$rootfs/etc/passwd"
  printf 'root:x:0:\nnogroup:x:65534:\n' >"$rootfs/etc/group"
  printf '127.0.0.1 localhost\n::1 localhost\n' >"$rootfs/etc/hosts"
  : >"$rootfs/etc/resolv.conf"
  echo busybox >"$rootfs/etc/hostname"

  cat >"$work/metadata.yaml" <<EOF
architecture: x86_64
creation_date: $(date +%s)
properties:
  os: busybox
  release: "$(/bin/busybox | head -n1 | awk '{print $2}')"
  architecture: x86_64
  description: converge test image (busybox-static, udhcpc on eth0)
EOF
  log "packing unified tarball $tarball"
  tar --numeric-owner --owner=0 --group=0 -C "$work" -czf "$tarball" metadata.yaml rootfs
  run lxc image import "$tarball" --alias "$IMAGE_ALIAS"
  rm -rf "$work"
}
if lxc image alias list --format csv | awk -F, -v a="$IMAGE_ALIAS" '$1==a{f=1} END{exit !f}'; then
  log "image alias '$IMAGE_ALIAS' exists; not rebuilding"
else
  build_image
fi

# --- 6. HTTPS listener + trust password --------------------------------------
if [ "$(lxc config get core.https_address)" != "$HTTPS_ADDR" ]; then
  run lxc config set core.https_address "$HTTPS_ADDR"
else
  log "core.https_address already $HTTPS_ADDR"
fi
# The stored value is a salted hash, so it cannot be compared; re-set it (harmless).
log "+ lxc config set core.trust_password <$TRUST_PASSWORD>"
lxc config set core.trust_password "$TRUST_PASSWORD"

# --- 7. facts for tests ---------------------------------------------------------
cat >"$ENV_FILE" <<EOF
LXD_SOCKET=$LXD_SOCKET
LXD_HTTPS=$HTTPS_ADDR
LXD_TRUST_PASSWORD=$TRUST_PASSWORD
LXD_BRIDGE=$BRIDGE
LXD_IMAGE=$IMAGE_ALIAS
EOF
log "wrote $ENV_FILE:"
sed 's/^/    /' "$ENV_FILE"

# --- 8. smoke test: launch + IPv4 ----------------------------------------------
if [ "${LXD_ENV_SKIP_SMOKE:-0}" != 1 ]; then
  lxc delete --force "$SMOKE_NAME" >/dev/null 2>&1 || true
  t0=$(date +%s%N)
  run lxc launch "$IMAGE_ALIAS" "$SMOKE_NAME" >/dev/null
  t1=$(date +%s%N)
  addr=
  for _ in $(seq 1 300); do
    addr=$(lxc list "$SMOKE_NAME" -c 4 --format csv | grep -o '198\.18\.0\.[0-9]*' || true)
    [ -n "$addr" ] && break
    sleep 0.1
  done
  t2=$(date +%s%N)
  if [ -z "$addr" ]; then
    lxc info --show-log "$SMOKE_NAME" >&2 || true
    lxc delete --force "$SMOKE_NAME" >/dev/null 2>&1 || true
    die "smoke container got no 198.18.0.x address within 30s"
  fi
  log "smoke test OK: $SMOKE_NAME got $addr; launch $(( (t1-t0)/1000000 ))ms, launch+IPv4 $(( (t2-t0)/1000000 ))ms"
  run lxc delete --force "$SMOKE_NAME"
fi
log "done"
