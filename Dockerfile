# nocontact: the bot in a container.
#
#   docker build -t nocontact .
#   docker run -e TELEGRAM_BOT_TOKEN=... -v nocontact-data:/data -v nocontact-keys:/keys nocontact
#
# Two volumes, on purpose: /data holds the databases (SQLite by default) and /keys the
# master key. Back them up separately; a copy of /data alone reveals nothing.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

WORKDIR /app
COPY pyproject.toml README.md ./
COPY bot ./bot
COPY flows ./flows
# libGL and GLib: what OpenCV needs to read screenshots (the ocr extra, bot/reading/ocr.py)
RUN apt-get update \
    && apt-get install -y --no-install-recommends libgl1 libglib2.0-0 \
    && rm -rf /var/lib/apt/lists/* \
    && pip install '.[ocr]' \
    && useradd --system --uid 10001 --user-group --home-dir /app --shell /usr/sbin/nologin nocontact \
    && mkdir -p /data /keys \
    && chown nocontact:nocontact /data /keys \
    && chmod 0700 /data /keys

ENV NOCONTACT_DATA_DIR=/data \
    MASTER_KEY_FILE=/keys/master.key \
    WEBHOOK_LISTEN=0.0.0.0 \
    METRICS_LISTEN=0.0.0.0

USER nocontact
VOLUME ["/data", "/keys"]
# webhook mode (nocontact run --webhook URL) and the metrics endpoint (METRICS_PORT), if used
EXPOSE 8443 9464

HEALTHCHECK --interval=30s --timeout=10s --start-period=30s --retries=3 \
    CMD ["nocontact", "health"]

# SIGTERM lets the steps in progress finish and gives the lease back
STOPSIGNAL SIGTERM
ENTRYPOINT ["nocontact"]
CMD ["run"]
