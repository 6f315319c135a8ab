package dev.firedrill.spring.app;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * The Spring Boot application the spring-chaos-monkey tests attack: one REST endpoint over one
 * service bean, with Chaos Monkey for Spring Boot on its classpath. It lives in the test sources
 * only and runs as a child process of the tests.
 */
@SpringBootApplication
public class DrillApplication {

  public static void main(String[] args) {
    SpringApplication.run(DrillApplication.class, args);
  }
}
