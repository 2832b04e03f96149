package io.fabemu.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.typesafe.config.ConfigFactory;
import org.junit.jupiter.api.Test;

/** The fan-out settings are sizes of 0 B or more; anything else is refused naming the setting. */
class FanOutSettingsTest {

  @Test
  void shouldReadTheDefaultsAndSizesInAnyUnit() {
    assertThat(PekkoWindowEngine.byteSetting(ConfigFactory.load(), PekkoWindowEngine.FAN_OUT_MIN_DATA_BYTES_PATH))
        .isEqualTo(1L << 20);
    assertThat(PekkoWindowEngine.byteSetting(ConfigFactory.parseString(
        PekkoWindowEngine.FAN_OUT_MIN_DATA_BYTES_PER_DEVICE_PATH + " = 0"),
        PekkoWindowEngine.FAN_OUT_MIN_DATA_BYTES_PER_DEVICE_PATH)).isZero();
  }

  @Test
  void shouldNameTheSettingWhenItIsNotASize() {
    String path = PekkoWindowEngine.FAN_OUT_MIN_DATA_BYTES_PATH;
    assertThatThrownBy(() -> PekkoWindowEngine.byteSetting(ConfigFactory.parseString(path + " = abc"), path))
        .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith(path + ": ");
    assertThatThrownBy(() -> PekkoWindowEngine.byteSetting(ConfigFactory.parseString(path + " = -1"), path))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining(path);
  }
}
