# rego-engine in a container: `docker build -t rego-engine .` then
# `docker run --rm -v "$PWD:/src" rego-engine scan .`
#
# The builder stage builds the pinned OPA compiler with Go (static, as
# wasm/build-opa.sh builds it) and the wheel, which carries that opa and the
# shipped rule pack precompiled by it; the runtime stage holds Python and the
# installed engine only (no Go; the wheel's opa compiles custom rules).

ARG PYTHON_VERSION=3.11.14

FROM golang:1.26.0-bookworm AS go

FROM python:${PYTHON_VERSION}-slim-bookworm AS builder
COPY --from=go /usr/local/go /usr/local/go
ENV PATH=/usr/local/go/bin:$PATH \
    REGO_ENGINE_CACHE=/opt/rego-engine-cache \
    PIP_DISABLE_PIP_VERSION_CHECK=1
WORKDIR /build
COPY wasm/ wasm/
RUN cd wasm && CGO_ENABLED=0 go build -trimpath -o /opt/opa/opa github.com/open-policy-agent/opa
ENV REGO_ENGINE_OPA=/opt/opa/opa
COPY . .
RUN pip install --no-cache-dir build==1.6.1 \
    && python -m build --wheel --outdir /dist . \
    && python -c "import glob, sys, zipfile; names = zipfile.ZipFile(glob.glob('/dist/*.whl')[0]).namelist(); sys.exit(0 if {'engine/shipped/rule-pack.tar.gz', 'engine/shipped/opa/opa'} <= set(names) else 'the wheel lacks opa or the precompiled rule pack')"

FROM python:${PYTHON_VERSION}-slim-bookworm AS runtime
COPY --from=builder /dist/ /tmp/dist/
RUN pip install --no-cache-dir --disable-pip-version-check /tmp/dist/*.whl \
    && rm -rf /tmp/dist \
    && useradd --create-home --uid 10001 scanner
USER scanner
WORKDIR /src
ENTRYPOINT ["rego-engine"]
CMD ["scan", "."]
