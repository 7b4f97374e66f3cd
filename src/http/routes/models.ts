import { route } from "../route.js";

const modelNotFound = "No model '{name}'. Create it first with create_model. | Model not found";

/** Model registration, listing and archiving. */
export const modelRoutes = [
  route({
    method: "POST",
    path: "/api/v1/models",
    operationId: "create_model",
    summary: "Registers a model; a name the caller already owns answers 200 with status already_exists",
    key: "required",
    body: "CreateModelBody",
    responses: { 201: "Created (status: created)", 200: "status: already_exists", 409: "A model named '{name}' already exists." },
    handle: async ({ c, service, key, body }) => {
      const model = await service.createModel(key, body);
      return c.json(model, model.status === "created" ? 201 : 200);
    },
  }),
  route({
    method: "GET",
    path: "/api/v1/models",
    operationId: "get_models",
    summary: "The caller's active models with lane_active and lane_note",
    key: "required",
    responses: { 200: "{models: [...]}" },
    handle: async ({ c, service, key }) => c.json(await service.getModels(key)),
  }),
  route({
    method: "POST",
    path: "/api/v1/models/{model}/archive",
    operationId: "archive_model",
    summary: "Archives a model by id or name; its name is free again, its scores stay",
    key: "required",
    responses: { 200: "The archived model record", 404: modelNotFound },
    handle: async ({ c, service, key }) => c.json(await service.archiveModel(key, c.req.param("model") as string)),
  }),
];
