package io.fabemu.archfixtures.report;

import io.fabemu.archfixtures.core.topology.RingKindSpec;
import io.fabemu.archfixtures.core.topology.TopologySpec;

/** Violation: code outside core.topology tests a spec's kind, once by a pattern and once on the interface. */
public final class KindTestingReport {

  public static int ringHosts(Object spec) {
    if (spec instanceof TopologySpec && spec instanceof RingKindSpec ring) return ring.hosts();
    return 0;
  }

  /** Allowed: instanceof on a type that is no topology spec. */
  public static boolean isText(Object value) {
    return value instanceof String;
  }
}
