#!/usr/bin/env bash
# Run once by the postgres image when its data volume is new (/docker-entrypoint-initdb.d): one login role per
# service, each owning its own schema and nothing else, so the database itself enforces that no service reads
# another's schema. Passwords come from the container's environment (docker-compose.yml, from .env); they are
# set once, with the volume: to change one later, ALTER ROLE it or start from a new volume.
#
#   database   schema    role          used by
#   switchyard catalog   catalog_svc   catalog-svc
#   switchyard config    config_svc    config-svc
#   switchyard release   release_svc   release-svc's API and its workers
#   peer_a     peer      peer_a_svc    peer-a   (the two demo peers each keep their directory in a database of their own)
#   peer_b     peer      peer_b_svc    peer-b
set -euo pipefail

for var in CATALOG_DB_PASSWORD CONFIG_DB_PASSWORD RELEASE_DB_PASSWORD PEER_A_DB_PASSWORD PEER_B_DB_PASSWORD; do
  if [ -z "${!var:-}" ]; then echo "init-roles: $var is not set" >&2; exit 1; fi
done

psql -v ON_ERROR_STOP=1 --username "$POSTGRES_USER" --no-password --no-psqlrc --dbname "$POSTGRES_DB" \
  -v db="$POSTGRES_DB" \
  -v catalog_pw="$CATALOG_DB_PASSWORD" -v config_pw="$CONFIG_DB_PASSWORD" -v release_pw="$RELEASE_DB_PASSWORD" \
  -v peer_a_pw="$PEER_A_DB_PASSWORD" -v peer_b_pw="$PEER_B_DB_PASSWORD" <<'SQL'
CREATE ROLE catalog_svc LOGIN PASSWORD :'catalog_pw';
CREATE ROLE config_svc LOGIN PASSWORD :'config_pw';
CREATE ROLE release_svc LOGIN PASSWORD :'release_pw';
CREATE ROLE peer_a_svc LOGIN PASSWORD :'peer_a_pw';
CREATE ROLE peer_b_svc LOGIN PASSWORD :'peer_b_pw';

-- Nobody but the owner and the roles named below may connect, create schemas or temporary tables here.
REVOKE ALL ON DATABASE :"db" FROM PUBLIC;
GRANT CONNECT ON DATABASE :"db" TO catalog_svc, config_svc, release_svc;
REVOKE ALL ON SCHEMA public FROM PUBLIC;

-- Each service owns its schema (and so every table its migrations create there) and may use no other.
CREATE SCHEMA catalog AUTHORIZATION catalog_svc;
CREATE SCHEMA config AUTHORIZATION config_svc;
CREATE SCHEMA release AUTHORIZATION release_svc;

CREATE DATABASE peer_a;
CREATE DATABASE peer_b;
REVOKE ALL ON DATABASE peer_a FROM PUBLIC;
REVOKE ALL ON DATABASE peer_b FROM PUBLIC;
GRANT CONNECT ON DATABASE peer_a TO peer_a_svc;
GRANT CONNECT ON DATABASE peer_b TO peer_b_svc;

\connect peer_a
REVOKE ALL ON SCHEMA public FROM PUBLIC;
CREATE SCHEMA peer AUTHORIZATION peer_a_svc;

\connect peer_b
REVOKE ALL ON SCHEMA public FROM PUBLIC;
CREATE SCHEMA peer AUTHORIZATION peer_b_svc;
SQL
