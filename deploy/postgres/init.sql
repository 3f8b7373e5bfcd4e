-- Run once by the postgres image when its data volume is new: the two demo peers of docker-compose.yml each
-- keep their directory in a database of their own (both use the schema `peer`).
CREATE DATABASE peer_a OWNER switchyard;
CREATE DATABASE peer_b OWNER switchyard;
