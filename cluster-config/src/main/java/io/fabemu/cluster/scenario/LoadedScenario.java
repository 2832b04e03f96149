package io.fabemu.cluster.scenario;

import com.typesafe.config.Config;
import io.fabemu.fabric.ScenarioSpec;

/**
 * A scenario that passed every check.
 *
 * @param spec   the immutable records the run uses
 * @param config the resolved scenario with every default filled in (and the size list form the defaults chose), for
 *               echoing into results; it holds only keys of the schema, and leaves out the links and counts the
 *               topology kind does not use, so it is itself a valid scenario that loads to an equal spec
 * @param caseSchedule how the fault events placed in cases were resolved to times ({@link CaseSchedule#NONE} when
 *                     none is)
 */
public record LoadedScenario(ScenarioSpec spec, Config config, CaseSchedule caseSchedule) {

  /** A scenario whose fault plan places no event in a case. */
  public LoadedScenario(ScenarioSpec spec, Config config) {
    this(spec, config, CaseSchedule.NONE);
  }
}
