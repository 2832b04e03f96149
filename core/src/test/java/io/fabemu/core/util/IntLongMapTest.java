package io.fabemu.core.util;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class IntLongMapTest {

  @Test
  void shouldBehaveLikeHashMapWhenKeysCollideAndGetRemoved() {
    SplittableRandom random = new SplittableRandom(12345); // seeded: the same sequence every run
    IntLongMap<Integer> map = new IntLongMap<>();
    Map<String, Integer> model = new HashMap<>();
    for (int i = 0; i < 200_000; i++) {
      int source = random.nextInt(6);
      long tag = random.nextInt(50) + ((long) random.nextInt(3) << 32);
      String key = source + "/" + tag;
      switch (random.nextInt(3)) {
        case 0 -> assertThat(map.put(source, tag, i)).isEqualTo(model.put(key, i));
        case 1 -> assertThat(map.remove(source, tag)).isEqualTo(model.remove(key));
        default -> assertThat(map.get(source, tag)).isEqualTo(model.get(key));
      }
      assertThat(map.size()).isEqualTo(model.size());
    }
    for (Map.Entry<String, Integer> e : model.entrySet()) {
      String[] parts = e.getKey().split("/");
      assertThat(map.get(Integer.parseInt(parts[0]), Long.parseLong(parts[1]))).isEqualTo(e.getValue());
    }
  }
}
