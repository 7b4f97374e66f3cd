import { Rng } from "../domain/rng.js";
import { loadDatasetDir, type DatasetDirSettings, type DatasetRead } from "./dataset-dir.js";
import { checkDatasetSpec, generateDataset, type Dataset } from "./generate.js";
import { defaultDatasetSpec, type DatasetSpec } from "./schema.js";

/** A deployment's dataset settings: the generator's knobs (defaults fill the rest), or a directory to read. */
export type DatasetSettings = Partial<DatasetSpec> | DatasetDirSettings;

export function isDatasetDir(settings: DatasetSettings): settings is DatasetDirSettings {
  return "dir" in settings && settings.dir !== undefined;
}

/**
 * The one way to a deployment's dataset, with `nExpeds` live expeds for its rounds: read from a
 * directory in the service's layout (row group by row group, so it is asynchronous), or generated
 * from the seed's `dataset` fork.
 */
export async function datasetFor(settings: DatasetSettings, seed: string | number, nExpeds: number, read: DatasetRead = {}): Promise<Dataset> {
  if (isDatasetDir(settings)) return loadDatasetDir(settings, nExpeds, read);
  return generatedDataset(settings, seed, nExpeds);
}

/** Refuses settings whose generated dataset could not be drawn (see checkDatasetSpec), before any is; a directory's are left to its read. */
export function checkGeneratedDataset(settings: DatasetSettings, nExpeds: number): void {
  if (!isDatasetDir(settings)) checkDatasetSpec({ ...defaultDatasetSpec, ...settings }, nExpeds);
}

/** A generated dataset, synchronously; a directory's settings are refused (they are read by `datasetFor`). */
export function generatedDataset(settings: DatasetSettings, seed: string | number, nExpeds: number): Dataset {
  if (isDatasetDir(settings)) throw new Error(`the dataset directory ${settings.dir} is read asynchronously: build its world with loadWorld`);
  return generateDataset({ ...defaultDatasetSpec, ...settings }, new Rng(seed).fork("dataset"), nExpeds);
}
