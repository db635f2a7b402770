/**
 * Everything both entry points export apart from their `Client`: errors, options, handles,
 * retry policy, request ids, and the generated messages, enums and schemas.
 */
export { create, clone, equals, fromBinary, toBinary, fromJson, toJson, isMessage } from "@bufbuild/protobuf";
export { Code, ConnectError } from "@connectrpc/connect";

export * from "./errors.js";
export { Game } from "./game.js";
export { ActOptions, type CreateOptions } from "./options.js";
export { newRequestId } from "./request-id.js";
export { RetryPolicy, type RetryPolicyInit } from "./retry.js";
export { SeatHandle, metaAction } from "./seat.js";
export { Spectator } from "./spectator.js";
export type { ActionInit } from "./access.js";
export { apiKeyInterceptor, type ClientOptions, type GameConfigInit } from "./client.js";

export * from "./gen/index.js";
