import { describe, expect, it } from "vitest";
import { pythonUses, servedPythonLanes, untrainedKinds } from "../../sim/requirements.js";
import { loadScenario } from "../../sim/scenario.js";
import { usingInterpreter } from "../helpers/python.js";
import { requires } from "../helpers/requires.js";

/** Debian's interpreter, which has scikit-learn and xgboost but not LightGBM (Debian does not package it). */
const DEBIAN_PYTHON = "/usr/bin/python3";
usingInterpreter(DEBIAN_PYTHON);

const scenario = (name: string) => loadScenario(`scenarios/${name}.json`);

describe("what a scenario needs Python for", () => {
  it("is nothing for the built-in strategies alone, whatever the lanes", () => {
    for (const name of ["default-tournament", "default-event", "staking-tournament"]) expect(pythonUses(scenario(name)), name).toEqual([]);
  });

  it("names the agents that run model files or Python files, and an event's hosted compute", () => {
    expect(pythonUses(scenario("auto-submit-tournament"))).toEqual(["agents autopilot (auto_submitter), copilot (auto_then_manual)"]);
    expect(pythonUses(scenario("compute-event"))).toEqual(["agents hal (hosted_trainer), ada (hosted_trainer), gus (hosted_trainer)", "hosted compute (event.compute)"]);
    const base = scenario("default-tournament");
    const files = { ...base, agents: [{ ...base.agents[0], name: "mine", strategy: "/models/mine.pkl" }, { ...base.agents[1], strategy: "/models/mine.ts" }] };
    expect(pythonUses(files)).toEqual(["agent mine (mine.pkl)"]);
  });

  it("when served, names the lanes that run others' model files: a tournament's auto-submit lane, an event's hosted compute", () => {
    expect(servedPythonLanes(scenario("default-tournament"))).toEqual(["the auto-submit lane"]);
    expect(servedPythonLanes(scenario("default-event"))).toEqual([]);
    expect(servedPythonLanes(scenario("compute-event"))).toEqual(["hosted compute (event.compute)"]);
  });

  requires("python", "training").it("names the hosted trainers whose kind this machine's Python cannot train, and the module it lacks", async () => {
    const lightgbm =
      `hosted compute does not train lightgbm here (agent gus): the training interpreter ${DEBIAN_PYTHON} cannot import lightgbm ` +
      "(ModuleNotFoundError: No module named 'lightgbm'); its launches are refused (400 train_model_unsupported)";
    expect(await untrainedKinds(scenario("compute-event"), "trusted")).toEqual([lightgbm]);
    expect(await untrainedKinds(scenario("compute-kinds-event"), "trusted")).toEqual([lightgbm]);
    expect(await untrainedKinds(scenario("default-event"), "trusted")).toEqual([]);
  });
});
