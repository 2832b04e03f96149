package io.fabemu.app;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The exit codes are a contract with scripts: their values never change. */
class ExitCodesTest {

  @Test
  void shouldKeepDocumentedValues() {
    assertThat(new int[] {ExitCodes.OK, ExitCodes.RUN_FAILED, ExitCodes.BAD_INPUT, ExitCodes.LOST_MEMBER})
        .containsExactly(0, 1, 2, 3);
  }
}
