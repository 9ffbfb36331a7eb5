# One container for self-hosters: the server, the built client and the SQLite database.
FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build && npm prune --omit=dev

FROM node:24-bookworm-slim
# MALLOC_ARENA_MAX=2: glibc otherwise keeps a memory arena per image-processing thread, and
# resident memory grows with every photo (sharp's documented advice; see docs/configuration.md).
# NODE_COMPILE_CACHE: a restart loads the server's modules already stripped of their types and
# compiled, without Node's TypeScript stripper, which costs 20 MB of resident memory.
ENV NODE_ENV=production \
    MALLOC_ARENA_MAX=2 \
    NODE_COMPILE_CACHE=/app/.cache/compile \
    PORT=8080 \
    VAULT_DATA_DIR=/app/data
WORKDIR /app
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/src ./src
COPY --from=build /app/federation ./federation
COPY --from=build /app/contract ./contract
COPY --from=build /app/migrations ./migrations
# The built client with the .br and .gz files written beside each text file (web/precompress.ts).
COPY --from=build /app/web/dist ./web/dist
RUN mkdir -p /app/data /app/.cache/compile && chown node:node /app/data /app/.cache/compile
USER node
VOLUME /app/data
EXPOSE 8080
CMD ["node", "--max-semi-space-size=2", "src/main.ts"]
