package io.fabemu.archfixtures.core.sim;

import io.fabemu.archfixtures.core.fault.FaultFixture;
import io.fabemu.archfixtures.core.time.TimeFixture;

/** The kernel naming a feature of core (the violation), beside a use of another kernel package (allowed). */
public final class ReportNamingAFeature {
  public FaultFixture faults;
  public TimeFixture time;
}
