#!/bin/sh
# Entrypoint of the compose stack's RabbitMQ: writes a definitions file with one user per service, each allowed
# only the exchanges and queues it uses, plus an administrator for the management UI; then starts the image's
# own entrypoint. Passwords come from the container's environment (docker-compose.yml, from .env).
#
# Permissions are regular expressions on resource names (configure: declare and delete; write: publish and bind a
# queue; read: consume and bind from an exchange). The names are the stack's defaults: the events exchange
# `switchyard.events` and its dead-letter exchange `switchyard.events.dlx` (EVENTS_EXCHANGE), config-svc's queues
# `config-svc.*` and the release worker's `release-svc.*` (QUEUE_PREFIX), and each peer's client-place queues
# `switchyard.<peer>.*` (CLIENT_PLACES).
#
#   user            configure                          write                                  read
#   config-svc      the two exchanges, config-svc.*    the two exchanges, config-svc.*        the two exchanges, config-svc.*
#   release-svc     the two exchanges                  the events exchange                    nothing
#   release-worker  the two exchanges, release-svc.*   the two exchanges, release-svc.*       the two exchanges, release-svc.*
#   peer-a, peer-b  the two exchanges, its queues      the events exchange, amq.default, its  nothing
#                                                      queues
#
# Definitions loaded at boot replace the image's default user: `guest` does not exist in this broker.
set -eu

for var in RABBITMQ_ADMIN_PASSWORD CONFIG_AMQP_PASSWORD RELEASE_AMQP_PASSWORD WORKER_AMQP_PASSWORD PEER_A_AMQP_PASSWORD \
  PEER_B_AMQP_PASSWORD; do
  eval "value=\${$var:-}"
  if [ -z "$value" ]; then echo "rabbitmq entrypoint: $var is not set" >&2; exit 1; fi
  case "$value" in *'"'* | *'\'*) echo "rabbitmq entrypoint: $var may not contain \" or \\" >&2; exit 1 ;; esac
done

EXCHANGES='switchyard\\.events(\\.dlx)?'
user() { printf '    {"name": "%s", "password": "%s", "tags": "%s"}' "$1" "$2" "$3"; }
perm() { printf '    {"user": "%s", "vhost": "/", "configure": "%s", "write": "%s", "read": "%s"}' "$1" "$2" "$3" "$4"; }

definitions=/etc/rabbitmq/switchyard-definitions.json
umask 077
{
  echo '{'
  echo '  "vhosts": [{"name": "/"}],'
  echo '  "users": ['
  user admin "$RABBITMQ_ADMIN_PASSWORD" administrator; echo ,
  user config-svc "$CONFIG_AMQP_PASSWORD" ''; echo ,
  user release-svc "$RELEASE_AMQP_PASSWORD" ''; echo ,
  user release-worker "$WORKER_AMQP_PASSWORD" ''; echo ,
  user peer-a "$PEER_A_AMQP_PASSWORD" ''; echo ,
  user peer-b "$PEER_B_AMQP_PASSWORD" ''; echo
  echo '  ],'
  echo '  "permissions": ['
  perm admin '.*' '.*' '.*'; echo ,
  perm config-svc "^($EXCHANGES|config-svc\\..+)\$" "^($EXCHANGES|config-svc\\..+)\$" "^($EXCHANGES|config-svc\\..+)\$"; echo ,
  perm release-svc "^$EXCHANGES\$" '^switchyard\\.events$' '^$'; echo ,
  perm release-worker "^($EXCHANGES|release-svc\\..+)\$" "^($EXCHANGES|release-svc\\..+)\$" "^($EXCHANGES|release-svc\\..+)\$"; echo ,
  perm peer-a "^($EXCHANGES|switchyard\\.peer-a\\..+)\$" '^(switchyard\\.events|amq\\.default|switchyard\\.peer-a\\..+)$' '^$'; echo ,
  perm peer-b "^($EXCHANGES|switchyard\\.peer-b\\..+)\$" '^(switchyard\\.events|amq\\.default|switchyard\\.peer-b\\..+)$' '^$'; echo
  echo '  ]'
  echo '}'
} >"$definitions"
mkdir -p /etc/rabbitmq/conf.d
echo "load_definitions = $definitions" >/etc/rabbitmq/conf.d/90-switchyard-definitions.conf
if [ "$(id -u)" = 0 ]; then chown rabbitmq:rabbitmq "$definitions" /etc/rabbitmq/conf.d/90-switchyard-definitions.conf; fi

exec docker-entrypoint.sh "$@"
