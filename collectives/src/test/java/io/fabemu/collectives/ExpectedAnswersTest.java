package io.fabemu.collectives;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabemu.core.data.DataBuffer;
import io.fabemu.core.data.DataType;
import io.fabemu.core.data.ReduceOp;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

class ExpectedAnswersTest {

  @Test
  void shouldComputeReductionOnceWhenManyThreadsAskForTheSameSize() throws Exception {
    ExpectedAnswers answers = new ExpectedAnswers(1, DataType.FLOAT32, ReduceOp.SUM, 64);
    ExecutorService pool = Executors.newFixedThreadPool(8);
    try {
      List<Future<DataBuffer>> futures = new ArrayList<>();
      for (int i = 0; i < 32; i++) {
        futures.add(pool.submit(() -> answers.reduction(4L * 4096, 4096)));
      }
      DataBuffer first = futures.get(0).get();
      for (Future<DataBuffer> f : futures) {
        assertThat(f.get()).isSameAs(first);
      }
    } finally {
      pool.shutdown();
    }
  }

  @Test
  void shouldMatchNaiveSumWhenReducingManyRanks() {
    ExpectedAnswers answers = new ExpectedAnswers(77, DataType.INT16, ReduceOp.SUM, 256);
    DataBuffer r = answers.reduction(2L * 100, 100);
    InputGenerator g = answers.inputs();
    for (int i = 0; i < 100; i++) {
      long sum = 0;
      for (int rank = 0; rank < 256; rank++) sum += g.value(200, rank, i);
      assertThat((long) r.get(i)).isEqualTo(sum);
    }
  }

  @Test
  void shouldCountEveryWrongElementWhenResultIsPoisoned() {
    ExpectedAnswers answers = new ExpectedAnswers(1, DataType.INT32, null, 4);
    DataBuffer garbage = DataBuffer.allocate(DataType.INT32, 4 * 10, false);
    java.util.Arrays.fill((int[]) garbage.valuesArray(), 12345);
    assertThat(answers.countWrong(Collective.ALLGATHER, 0, 40, 10, 1, garbage)).isEqualTo(40);
    assertThat(answers.countWrong(Collective.GATHER, 0, 40, 10, 1, garbage)).isZero(); // not the root
    assertThat(answers.countWrong(Collective.SCATTER, 0, 40, 10, 1, garbage)).isEqualTo(10);
  }
}
