import { Rng } from "../domain/rng.js";
import { loadDatasetDir, type DatasetDirSettings } from "./dataset-dir.js";
import { generateDataset, type Dataset } from "./generate.js";
import { defaultDatasetSpec, type DatasetSpec } from "./schema.js";

/** A deployment's dataset settings: the generator's knobs (defaults fill the rest), or a directory to read. */
export type DatasetSettings = Partial<DatasetSpec> | DatasetDirSettings;

export function isDatasetDir(settings: DatasetSettings): settings is DatasetDirSettings {
  return "dir" in settings && settings.dir !== undefined;
}

/**
 * The one way to a deployment's dataset, with `nExpeds` live expeds for its rounds: read from a
 * directory in the service's layout, or generated from the seed's `dataset` fork.
 */
export function datasetFor(settings: DatasetSettings, seed: string | number, nExpeds: number): Dataset {
  if (isDatasetDir(settings)) return loadDatasetDir(settings, nExpeds);
  return generateDataset({ ...defaultDatasetSpec, ...settings }, new Rng(seed).fork("dataset"), nExpeds);
}
