package io.fabemu.cluster.scenario;

/**
 * One section of a scenario (or one set of rules across sections): reads and checks its keys into the draft.
 *
 * <p>Contract: {@link ScenarioLoader} runs its sections once each, in a fixed order, after the key schema has passed;
 * a section may use the parts the sections before it put in the draft, and throws the first problem it finds as a
 * {@link ScenarioException} from the reader. Adding a section to the scenario format means adding an implementation
 * and its place in the loader's list.
 */
interface ScenarioSection {

  void read(ScenarioReader in, ScenarioDraft draft);
}
