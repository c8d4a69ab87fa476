package faults_test

import (
	"testing"

	"github.com/ptx2go/ptx2go/internal/e2e/harness"
)

func TestMain(m *testing.M) { harness.Main(m) }
