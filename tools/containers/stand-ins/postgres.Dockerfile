# A stand-in for Docker Hub's postgres image where it cannot be pulled: Debian's PostgreSQL on the
# locally made base, started the way the official image starts (POSTGRES_USER, POSTGRES_PASSWORD,
# POSTGRES_DB on first start; data in $PGDATA), as the unprivileged postgres user.
ARG BASE_IMAGE=platform-node-base:local
FROM ${BASE_IMAGE}
RUN apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends postgresql-15 >/dev/null \
 && rm -rf /var/lib/apt/lists/* /var/lib/postgresql/15 /etc/postgresql/15/main \
 && mkdir -p /var/lib/postgresql /var/run/postgresql && chown -R postgres:postgres /var/lib/postgresql /var/run/postgresql
COPY postgres-entrypoint.sh /usr/local/bin/docker-entrypoint.sh
ENV PATH=/usr/lib/postgresql/15/bin:$PATH PGDATA=/var/lib/postgresql/data
USER postgres
EXPOSE 5432
ENTRYPOINT ["docker-entrypoint.sh"]
CMD ["postgres"]
