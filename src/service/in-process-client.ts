import type { Client } from "./client.js";
import type { Service } from "./service.js";

/** The Client over a Service in the same process: what the engine's agents use. */
export function inProcessClient(service: Service, apiKey: string): Client {
  return {
    whoami: () => service.whoami(apiKey),
    getStarted: () => service.getStarted(apiKey),
    explainScoring: () => service.explainScoring(),
    currentRound: () => service.currentRound(apiKey),
    schedule: () => service.schedule(apiKey),
    instruments: () => service.instruments(apiKey),
    downloadDataset: (split) => service.downloadDataset(apiKey, split),
    downloadBenchmark: (_universe, split) => service.downloadBenchmark(apiKey, split),
    createModel: (input) => service.createModel(apiKey, input),
    getModels: () => service.getModels(apiKey),
    archiveModel: (model) => service.archiveModel(apiKey, model),
    submit: (input) => service.submit(apiKey, input),
    uploadModel: (input) => service.uploadModel(apiKey, input),
    getUploadStatus: (model) => service.getUploadStatus(apiKey, model),
    setAutoSubmit: (input) => service.setAutoSubmit(apiKey, input),
    standings: () => service.standings(apiKey),
    roundBoard: (exped) => service.roundBoard(apiKey, exped),
    stakeFromWallet: (input) => service.stakeFromWallet(apiKey, input),
    getStakeAllowance: () => service.getStakeAllowance(apiKey),
    getStake: (model) => service.getStake(apiKey, model),
    uploadRound: (input) => service.uploadRound(apiKey, input),
    uploadPractice: (input) => service.uploadPractice(apiKey, input),
    uploadBatch: (lane, items) => service.uploadBatch(apiKey, lane, items),
    getRun: (uploadId) => service.getRun(apiKey, uploadId),
    deleteRun: (uploadId) => service.deleteRun(apiKey, uploadId),
    eventRoundBoard: (window) => service.eventRoundBoard(apiKey, window),
    practiceBoard: () => service.practiceBoard(apiKey),
    eventStaking: () => service.eventStaking(apiKey),
    setStakeAllocation: (input) => service.setStakeAllocation(apiKey, input),
    withdrawStakeAllocation: (input) => service.withdrawStakeAllocation(apiKey, input),
    getFinalSelection: () => service.getFinalSelection(apiKey),
    setFinalSelection: (models) => service.setFinalSelection(apiKey, models),
    finalBoard: () => service.finalBoard(apiKey),
  };
}
