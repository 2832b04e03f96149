package io.fabemu.core.fuzz;

import java.lang.reflect.AnnotatedElement;
import java.lang.reflect.Method;
import java.util.Optional;
import net.jqwik.api.Property;
import net.jqwik.api.lifecycle.AroundPropertyHook;
import net.jqwik.api.lifecycle.PropagationMode;
import net.jqwik.api.lifecycle.PropertyExecutionResult;
import net.jqwik.api.lifecycle.PropertyExecutor;
import net.jqwik.api.lifecycle.PropertyLifecycleContext;

/**
 * Sets the tries of every property of a fuzz test class (add it with {@code @AddLifecycleHook(FuzzTries.class)}):
 * {@link #DEFAULT_TRIES} in an ordinary {@code mvn -B test}, so the fuzzers stay fast, or the system property
 * {@value #PROPERTY} when set, as the {@code fuzz} Maven profile does for long runs outside CI.
 */
public final class FuzzTries implements AroundPropertyHook {
  /** The system property that sets the tries. */
  public static final String PROPERTY = "fabemu.fuzz.tries";
  /** Tries per property when {@value #PROPERTY} is not set. */
  public static final int DEFAULT_TRIES = 300;

  /**
   * The tries each fuzz property runs.
   *
   * @throws IllegalArgumentException when {@value #PROPERTY} is set but is no positive integer
   */
  public static int tries() {
    String value = System.getProperty(PROPERTY, "").trim();
    if (value.isEmpty()) {
      return DEFAULT_TRIES;
    }
    try {
      int tries = Integer.parseInt(value);
      if (tries > 0) {
        return tries;
      }
    } catch (NumberFormatException e) {
      // reported below with the value
    }
    throw new IllegalArgumentException(PROPERTY + " must be a positive integer, got '" + value + "'");
  }

  /** Registered on a class, the hook reaches the class's properties (not its examples, which run once). */
  @Override
  public PropagationMode propagateTo() {
    return PropagationMode.ALL_DESCENDANTS;
  }

  @Override
  public boolean appliesTo(Optional<AnnotatedElement> element) {
    return element.map(e -> e instanceof Method && e.isAnnotationPresent(Property.class)).orElse(false);
  }

  @Override
  public PropertyExecutionResult aroundProperty(PropertyLifecycleContext context, PropertyExecutor property) {
    context.attributes().setTries(tries());
    return property.execute();
  }
}
