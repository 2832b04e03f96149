package io.fabemu.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class StderrTerminalTest {

  @Test
  void shouldTakeTheLaunchersAnswerWhenThePropertyIsSet() {
    assertThat(StderrTerminal.decide("true", null)).isTrue();
    assertThat(StderrTerminal.decide(" TRUE ", null)).isTrue();
    assertThat(StderrTerminal.decide("false", null)).isFalse();
  }

  @Test
  void shouldSayNoTerminalWhenThePropertyIsUnsetAndThereIsNoConsole() {
    assertThat(StderrTerminal.decide(null, null)).isFalse();
  }

  @Test
  void shouldRefuseAPropertyThatIsNeitherTrueNorFalse() {
    assertThatThrownBy(() -> StderrTerminal.decide("yes", null))
        .isInstanceOf(BadInputException.class)
        .hasMessage("-Dfabemu.stderr-tty must be true or false, not 'yes'");
  }

  @Test
  void shouldSeeNoTerminalUnderTheTestRunner() {
    // Surefire's forked JVM has its stdout and stdin on pipes: no console, so no progress bar in a build log.
    String saved = System.getProperty(StderrTerminal.PROPERTY);
    System.clearProperty(StderrTerminal.PROPERTY);
    try {
      assertThat(StderrTerminal.detect()).isEqualTo(System.console() != null);
    } finally {
      if (saved != null) System.setProperty(StderrTerminal.PROPERTY, saved);
    }
  }
}
