# Votal on Node 20 with Debian's Chromium (the browser fallback drives /usr/bin/chromium;
# no browser is ever downloaded by npm tools).
FROM node:20-bookworm-slim

RUN apt-get update \
 && apt-get install -y --no-install-recommends chromium ca-certificates \
 && rm -rf /var/lib/apt/lists/*

WORKDIR /app
# In a container the service must listen on every interface for `docker run -p` to reach it
# (outside one, HOST defaults to 127.0.0.1).
ENV NODE_ENV=production \
    CHROMIUM_PATH=/usr/bin/chromium \
    HOST=0.0.0.0 \
    PORT=8080

COPY package.json package-lock.json .npmrc tsconfig.json tsconfig.build.json ./
COPY bin ./bin
COPY src ./src
COPY scrapers ./scrapers
COPY rulesets ./rulesets
COPY migrations ./migrations
COPY fixtures ./fixtures
# Dev dependencies are needed to compile; pruned afterwards.
RUN npm ci --include=dev && npm prune --omit=dev

# The embedded database lives in ./.votal; mount a volume there to keep it.
RUN mkdir -p /app/.votal && chown node:node /app/.votal
VOLUME ["/app/.votal"]
USER node
EXPOSE 8080
ENTRYPOINT ["node", "bin/votal.js"]
CMD ["serve"]
