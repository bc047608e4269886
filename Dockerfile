# Build with the Swift toolchain image, run on slim Debian with only the runtime libraries.
# The build and install steps are the Makefile's (`make deps`, `swift build -c release`),
# so what is tested is what ships.
ARG SWIFT_VERSION=6.3.1
FROM swift:${SWIFT_VERSION}-bookworm AS build
WORKDIR /src
RUN apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq make libmicrohttpd-dev zlib1g-dev libxml2-dev libsqlite3-dev libpq-dev pkg-config \
        libharfbuzz-dev libfontconfig-dev libicu-dev librsvg2-dev fonts-dejavu-core fonts-inter \
    && rm -rf /var/lib/apt/lists/*
COPY . .
# The Swift runtime is linked in statically: the runtime image needs only the C libraries.
RUN make release SWIFT_BUILD_FLAGS=--static-swift-stdlib && cp .build/release/layoutd /layoutd

FROM debian:bookworm-slim
RUN apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
        libmicrohttpd12 zlib1g libxml2 libsqlite3-0 libpq5 libharfbuzz0b libfontconfig1 libicu72 librsvg2-2 libcairo2 libglib2.0-0 \
        fonts-dejavu-core fonts-inter ca-certificates curl \
    && rm -rf /var/lib/apt/lists/* \
    && useradd --system --uid 10001 --no-create-home layoutd \
    && mkdir -p /var/lib/layoutd && chown 10001 /var/lib/layoutd
COPY --from=build /layoutd /usr/local/bin/layoutd
ENV LAYOUTD_HOST=0.0.0.0 \
    LAYOUTD_PORT=8080 \
    LAYOUTD_STORE=sqlite:/var/lib/layoutd/sessions.sqlite
# Sessions survive restarts in this volume.
VOLUME /var/lib/layoutd
USER 10001
EXPOSE 8080
HEALTHCHECK --interval=10s --timeout=2s --start-period=5s --retries=3 CMD curl -fsS http://127.0.0.1:8080/healthz || exit 1
STOPSIGNAL SIGTERM
ENTRYPOINT ["/usr/local/bin/layoutd"]
