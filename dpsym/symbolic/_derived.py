"""Derivations cached by ``dpsym derive`` (dpsym 0.1.0): generated, do not edit."""
# ruff: noqa
from sympy import *
from sympy.core.parameters import evaluate
from sympy.functions.elementary.piecewise import ExprCondPair
from dpsym.symbolic.sums import LerchSum, LowerGammaStar

FINGERPRINT = '5de400538e0e70f08a30cf89dd322cb431eac97fe5871bd7bcd40c4f225511c3'

def _e0():
    with evaluate(False):
        return {Symbol('a_norm', positive=True): Mul(Pow(Add(Integer(1), exp(Mul(Symbol('eps', positive=True), Pow(Symbol('Delta', positive=True), Integer(-1))))), Integer(-1)), Add(Integer(-1), exp(Mul(Symbol('eps', positive=True), Pow(Symbol('Delta', positive=True), Integer(-1))))))}

def _e1():
    with evaluate(False):
        return Mul(Integer(2), Pow(Add(Integer(1), exp(Mul(Symbol('eps', positive=True), Pow(Symbol('Delta', positive=True), Integer(-1))))), Integer(-1)), Pow(Add(Integer(-1), exp(Mul(Symbol('eps', positive=True), Pow(Symbol('Delta', positive=True), Integer(-1))))), Integer(-1)), exp(Mul(Symbol('eps', positive=True), Pow(Symbol('Delta', positive=True), Integer(-1)))))

def _e2():
    with evaluate(False):
        return Mul(Integer(2), Pow(Add(Integer(-1), exp(Mul(Symbol('eps', positive=True), Pow(Symbol('Delta', positive=True), Integer(-1))))), Integer(-2)), exp(Mul(Symbol('eps', positive=True), Pow(Symbol('Delta', positive=True), Integer(-1)))))

def _e3():
    with evaluate(False):
        return Mul(Integer(2), Pow(Add(Integer(-1), exp(Mul(Integer(2), Symbol('eps', positive=True), Pow(Symbol('Delta', positive=True), Integer(-1))))), Integer(-1)), exp(Mul(Symbol('eps', positive=True), Pow(Symbol('Delta', positive=True), Integer(-1)))))

def _e4():
    with evaluate(False):
        return Mul(Integer(2), Pow(Add(Integer(-1), exp(Mul(Symbol('eps', positive=True), Pow(Symbol('Delta', positive=True), Integer(-1))))), Integer(-2)), exp(Mul(Symbol('eps', positive=True), Pow(Symbol('Delta', positive=True), Integer(-1)))))

def _e5():
    with evaluate(False):
        return Mul(Integer(2), Pow(Add(Integer(1), exp(Mul(Symbol('eps', positive=True), Pow(Symbol('Delta', positive=True), Integer(-1))))), Integer(-1)), Pow(Add(Integer(-1), exp(Mul(Symbol('eps', positive=True), Pow(Symbol('Delta', positive=True), Integer(-1))))), Integer(-1)), exp(Mul(Symbol('eps', positive=True), Pow(Symbol('Delta', positive=True), Integer(-1)))))

def _e6():
    with evaluate(False):
        return Mul(Integer(2), Pow(Add(Integer(-1), exp(Mul(Symbol('eps', positive=True), Pow(Symbol('Delta', positive=True), Integer(-1))))), Integer(-2)), exp(Mul(Symbol('eps', positive=True), Pow(Symbol('Delta', positive=True), Integer(-1)))))

def _e7():
    with evaluate(False):
        return Mul(Integer(2), Pow(Add(Integer(1), exp(Mul(Symbol('eps', positive=True), Pow(Symbol('Delta', positive=True), Integer(-1))))), Integer(-1)), Pow(Add(Integer(-1), exp(Mul(Symbol('eps', positive=True), Pow(Symbol('Delta', positive=True), Integer(-1))))), Integer(-1)), exp(Mul(Symbol('eps', positive=True), Pow(Symbol('Delta', positive=True), Integer(-1)))))

def _e8():
    with evaluate(False):
        return Mul(Integer(2), Pow(Add(Integer(-1), exp(Mul(Symbol('eps', positive=True), Pow(Symbol('Delta', positive=True), Integer(-1))))), Integer(-2)), exp(Mul(Symbol('eps', positive=True), Pow(Symbol('Delta', positive=True), Integer(-1)))))

def _e9():
    with evaluate(False):
        return {Symbol('a_norm', positive=True): Mul(Pow(Add(Integer(1), Mul(Integer(-1), Symbol('b', positive=True)), Mul(Integer(-2), Symbol('r', positive=True, integer=True)), Mul(Integer(-2), Symbol('Delta', positive=True), Symbol('b', positive=True)), Mul(Integer(2), Symbol('b', positive=True), Symbol('r', positive=True, integer=True))), Integer(-1)), Add(Integer(-1), Symbol('b', positive=True)))}

def _e10():
    with evaluate(False):
        return None

def _e11():
    with evaluate(False):
        return None

def _e12():
    with evaluate(False):
        return None

def _e13():
    with evaluate(False):
        return None

def _e14():
    with evaluate(False):
        return Mul(Pow(Add(Integer(-1), Symbol('b', positive=True)), Integer(-1)), Pow(Add(Integer(1), Mul(Integer(-1), Symbol('b', positive=True)), Mul(Integer(-2), Symbol('r', positive=True, integer=True)), Mul(Integer(-2), Symbol('Delta', positive=True), Symbol('b', positive=True)), Mul(Integer(2), Symbol('b', positive=True), Symbol('r', positive=True, integer=True))), Integer(-1)), Add(Pow(Symbol('r', positive=True, integer=True), Integer(2)), Mul(Integer(-1), Symbol('r', positive=True, integer=True)), Mul(Symbol('Delta', positive=True), Pow(Symbol('b', positive=True), Integer(2))), Mul(Symbol('b', positive=True), Pow(Symbol('Delta', positive=True), Integer(2))), Mul(Pow(Symbol('Delta', positive=True), Integer(2)), Pow(Symbol('b', positive=True), Integer(2))), Mul(Pow(Symbol('b', positive=True), Integer(2)), Pow(Symbol('r', positive=True, integer=True), Integer(2))), Mul(Integer(-1), Symbol('Delta', positive=True), Symbol('b', positive=True)), Mul(Integer(-1), Symbol('r', positive=True, integer=True), Pow(Symbol('b', positive=True), Integer(2))), Mul(Integer(-2), Symbol('b', positive=True), Pow(Symbol('r', positive=True, integer=True), Integer(2))), Mul(Integer(2), Symbol('b', positive=True), Symbol('r', positive=True, integer=True)), Mul(Integer(-2), Symbol('Delta', positive=True), Symbol('r', positive=True, integer=True), Pow(Symbol('b', positive=True), Integer(2))), Mul(Integer(2), Symbol('Delta', positive=True), Symbol('b', positive=True), Symbol('r', positive=True, integer=True))))

def _e15():
    with evaluate(False):
        return Mul(Rational(1, 3), Pow(Add(Integer(-1), Symbol('b', positive=True)), Integer(-2)), Pow(Add(Integer(1), Mul(Integer(-1), Symbol('b', positive=True)), Mul(Integer(-2), Symbol('r', positive=True, integer=True)), Mul(Integer(-2), Symbol('Delta', positive=True), Symbol('b', positive=True)), Mul(Integer(2), Symbol('b', positive=True), Symbol('r', positive=True, integer=True))), Integer(-1)), Add(Mul(Integer(-1), Symbol('r', positive=True, integer=True)), Mul(Integer(-2), Pow(Symbol('r', positive=True, integer=True), Integer(3))), Mul(Integer(3), Pow(Symbol('r', positive=True, integer=True), Integer(2))), Mul(Symbol('r', positive=True, integer=True), Pow(Symbol('b', positive=True), Integer(3))), Mul(Integer(-1), Symbol('Delta', positive=True), Symbol('b', positive=True)), Mul(Integer(-1), Symbol('Delta', positive=True), Pow(Symbol('b', positive=True), Integer(3))), Mul(Integer(-9), Symbol('b', positive=True), Pow(Symbol('r', positive=True, integer=True), Integer(2))), Mul(Integer(-8), Pow(Symbol('Delta', positive=True), Integer(3)), Pow(Symbol('b', positive=True), Integer(2))), Mul(Integer(-6), Pow(Symbol('b', positive=True), Integer(2)), Pow(Symbol('r', positive=True, integer=True), Integer(3))), Mul(Integer(-3), Symbol('r', positive=True, integer=True), Pow(Symbol('b', positive=True), Integer(2))), Mul(Integer(-3), Pow(Symbol('Delta', positive=True), Integer(2)), Pow(Symbol('b', positive=True), Integer(3))), Mul(Integer(-3), Pow(Symbol('b', positive=True), Integer(3)), Pow(Symbol('r', positive=True, integer=True), Integer(2))), Mul(Integer(-2), Symbol('b', positive=True), Pow(Symbol('Delta', positive=True), Integer(3))), Mul(Integer(-2), Pow(Symbol('Delta', positive=True), Integer(3)), Pow(Symbol('b', positive=True), Integer(3))), Mul(Integer(2), Symbol('Delta', positive=True), Pow(Symbol('b', positive=True), Integer(2))), Mul(Integer(2), Pow(Symbol('b', positive=True), Integer(3)), Pow(Symbol('r', positive=True, integer=True), Integer(3))), Mul(Integer(3), Symbol('b', positive=True), Symbol('r', positive=True, integer=True)), Mul(Integer(3), Symbol('b', positive=True), Pow(Symbol('Delta', positive=True), Integer(2))), Mul(Integer(6), Symbol('b', positive=True), Pow(Symbol('r', positive=True, integer=True), Integer(3))), Mul(Integer(9), Pow(Symbol('b', positive=True), Integer(2)), Pow(Symbol('r', positive=True, integer=True), Integer(2))), Mul(Integer(-12), Symbol('Delta', positive=True), Symbol('r', positive=True, integer=True), Pow(Symbol('b', positive=True), Integer(2))), Mul(Integer(-6), Symbol('Delta', positive=True), Symbol('b', positive=True), Pow(Symbol('r', positive=True, integer=True), Integer(2))), Mul(Integer(-6), Symbol('Delta', positive=True), Pow(Symbol('b', positive=True), Integer(3)), Pow(Symbol('r', positive=True, integer=True), Integer(2))), Mul(Integer(-6), Symbol('b', positive=True), Symbol('r', positive=True, integer=True), Pow(Symbol('Delta', positive=True), Integer(2))), Mul(Integer(6), Symbol('Delta', positive=True), Symbol('b', positive=True), Symbol('r', positive=True, integer=True)), Mul(Integer(6), Symbol('Delta', positive=True), Symbol('r', positive=True, integer=True), Pow(Symbol('b', positive=True), Integer(3))), Mul(Integer(6), Symbol('r', positive=True, integer=True), Pow(Symbol('Delta', positive=True), Integer(2)), Pow(Symbol('b', positive=True), Integer(3))), Mul(Integer(12), Symbol('Delta', positive=True), Pow(Symbol('b', positive=True), Integer(2)), Pow(Symbol('r', positive=True, integer=True), Integer(2)))))

def _e16():
    with evaluate(False):
        return None

def _e17():
    with evaluate(False):
        return None

def _e18():
    with evaluate(False):
        return None

def _e19():
    with evaluate(False):
        return None

def _e20():
    with evaluate(False):
        return Mul(Pow(Add(Integer(-1), Symbol('b', positive=True)), Integer(-1)), Pow(Add(Integer(1), Mul(Integer(-1), Symbol('b', positive=True)), Mul(Integer(-2), Symbol('r', positive=True, integer=True)), Mul(Integer(-2), Symbol('Delta', positive=True), Symbol('b', positive=True)), Mul(Integer(2), Symbol('b', positive=True), Symbol('r', positive=True, integer=True))), Integer(-2)), Add(Integer(-1), Pow(Symbol('b', positive=True), Integer(3)), Mul(Integer(-3), Pow(Symbol('b', positive=True), Integer(2))), Mul(Integer(-2), Pow(Symbol('r', positive=True, integer=True), Integer(2))), Mul(Integer(2), Symbol('r', positive=True, integer=True)), Mul(Integer(3), Symbol('b', positive=True)), Mul(Integer(-6), Symbol('b', positive=True), Symbol('r', positive=True, integer=True)), Mul(Integer(-6), Pow(Symbol('b', positive=True), Integer(2)), Pow(Symbol('r', positive=True, integer=True), Integer(2))), Mul(Integer(-4), Symbol('Delta', positive=True), Pow(Symbol('b', positive=True), Integer(2))), Mul(Integer(-4), Pow(Symbol('Delta', positive=True), Integer(2)), Pow(Symbol('b', positive=True), Integer(2))), Mul(Integer(-2), Symbol('r', positive=True, integer=True), Pow(Symbol('b', positive=True), Integer(3))), Mul(Integer(2), Symbol('Delta', positive=True), Symbol('b', positive=True)), Mul(Integer(2), Symbol('Delta', positive=True), Pow(Symbol('b', positive=True), Integer(3))), Mul(Integer(2), Symbol('b', positive=True), Pow(Symbol('Delta', positive=True), Integer(2))), Mul(Integer(2), Pow(Symbol('Delta', positive=True), Integer(2)), Pow(Symbol('b', positive=True), Integer(3))), Mul(Integer(2), Pow(Symbol('b', positive=True), Integer(3)), Pow(Symbol('r', positive=True, integer=True), Integer(2))), Mul(Integer(6), Symbol('b', positive=True), Pow(Symbol('r', positive=True, integer=True), Integer(2))), Mul(Integer(6), Symbol('r', positive=True, integer=True), Pow(Symbol('b', positive=True), Integer(2))), Mul(Integer(-4), Symbol('Delta', positive=True), Symbol('b', positive=True), Symbol('r', positive=True, integer=True)), Mul(Integer(-4), Symbol('Delta', positive=True), Symbol('r', positive=True, integer=True), Pow(Symbol('b', positive=True), Integer(3))), Mul(Integer(8), Symbol('Delta', positive=True), Symbol('r', positive=True, integer=True), Pow(Symbol('b', positive=True), Integer(2)))))

def _e21():
    with evaluate(False):
        return Mul(Rational(1, 3), Pow(Add(Integer(-1), Symbol('b', positive=True)), Integer(-2)), Pow(Add(Integer(1), Mul(Integer(-1), Symbol('b', positive=True)), Mul(Integer(-2), Symbol('r', positive=True, integer=True)), Mul(Integer(-2), Symbol('Delta', positive=True), Symbol('b', positive=True)), Mul(Integer(2), Symbol('b', positive=True), Symbol('r', positive=True, integer=True))), Integer(-2)), Add(Integer(-1), Mul(Integer(-1), Pow(Symbol('b', positive=True), Integer(4))), Mul(Integer(-12), Pow(Symbol('r', positive=True, integer=True), Integer(2))), Mul(Integer(-6), Pow(Symbol('b', positive=True), Integer(2))), Mul(Integer(4), Symbol('b', positive=True)), Mul(Integer(4), Pow(Symbol('b', positive=True), Integer(3))), Mul(Integer(6), Symbol('r', positive=True, integer=True)), Mul(Integer(8), Pow(Symbol('r', positive=True, integer=True), Integer(3))), Mul(Integer(-72), Pow(Symbol('b', positive=True), Integer(2)), Pow(Symbol('r', positive=True, integer=True), Integer(2))), Mul(Integer(-32), Symbol('b', positive=True), Pow(Symbol('r', positive=True, integer=True), Integer(3))), Mul(Integer(-32), Pow(Symbol('b', positive=True), Integer(3)), Pow(Symbol('r', positive=True, integer=True), Integer(3))), Mul(Integer(-24), Symbol('b', positive=True), Symbol('r', positive=True, integer=True)), Mul(Integer(-24), Symbol('r', positive=True, integer=True), Pow(Symbol('b', positive=True), Integer(3))), Mul(Integer(-18), Symbol('Delta', positive=True), Pow(Symbol('b', positive=True), Integer(2))), Mul(Integer(-12), Pow(Symbol('Delta', positive=True), Integer(2)), Pow(Symbol('b', positive=True), Integer(2))), Mul(Integer(-12), Pow(Symbol('Delta', positive=True), Integer(2)), Pow(Symbol('b', positive=True), Integer(4))), Mul(Integer(-12), Pow(Symbol('b', positive=True), Integer(4)), Pow(Symbol('r', positive=True, integer=True), Integer(2))), Mul(Integer(-8), Pow(Symbol('Delta', positive=True), Integer(3)), Pow(Symbol('b', positive=True), Integer(4))), Mul(Integer(-6), Symbol('Delta', positive=True), Pow(Symbol('b', positive=True), Integer(4))), Mul(Integer(-4), Symbol('b', positive=True), Pow(Symbol('Delta', positive=True), Integer(3))), Mul(Integer(6), Symbol('Delta', positive=True), Symbol('b', positive=True)), Mul(Integer(6), Symbol('r', positive=True, integer=True), Pow(Symbol('b', positive=True), Integer(4))), Mul(Integer(8), Pow(Symbol('b', positive=True), Integer(4)), Pow(Symbol('r', positive=True, integer=True), Integer(3))), Mul(Integer(12), Pow(Symbol('Delta', positive=True), Integer(3)), Pow(Symbol('b', positive=True), Integer(3))), Mul(Integer(18), Symbol('Delta', positive=True), Pow(Symbol('b', positive=True), Integer(3))), Mul(Integer(24), Pow(Symbol('Delta', positive=True), Integer(2)), Pow(Symbol('b', positive=True), Integer(3))), Mul(Integer(36), Symbol('r', positive=True, integer=True), Pow(Symbol('b', positive=True), Integer(2))), Mul(Integer(48), Symbol('b', positive=True), Pow(Symbol('r', positive=True, integer=True), Integer(2))), Mul(Integer(48), Pow(Symbol('b', positive=True), Integer(2)), Pow(Symbol('r', positive=True, integer=True), Integer(3))), Mul(Integer(48), Pow(Symbol('b', positive=True), Integer(3)), Pow(Symbol('r', positive=True, integer=True), Integer(2))), Mul(Integer(-72), Symbol('Delta', positive=True), Symbol('r', positive=True, integer=True), Pow(Symbol('b', positive=True), Integer(3))), Mul(Integer(-72), Symbol('Delta', positive=True), Pow(Symbol('b', positive=True), Integer(2)), Pow(Symbol('r', positive=True, integer=True), Integer(2))), Mul(Integer(-48), Symbol('r', positive=True, integer=True), Pow(Symbol('Delta', positive=True), Integer(2)), Pow(Symbol('b', positive=True), Integer(3))), Mul(Integer(-24), Symbol('Delta', positive=True), Symbol('b', positive=True), Symbol('r', positive=True, integer=True)), Mul(Integer(-24), Symbol('Delta', positive=True), Pow(Symbol('b', positive=True), Integer(4)), Pow(Symbol('r', positive=True, integer=True), Integer(2))), Mul(Integer(24), Symbol('Delta', positive=True), Symbol('b', positive=True), Pow(Symbol('r', positive=True, integer=True), Integer(2))), Mul(Integer(24), Symbol('Delta', positive=True), Symbol('r', positive=True, integer=True), Pow(Symbol('b', positive=True), Integer(4))), Mul(Integer(24), Symbol('r', positive=True, integer=True), Pow(Symbol('Delta', positive=True), Integer(2)), Pow(Symbol('b', positive=True), Integer(2))), Mul(Integer(24), Symbol('r', positive=True, integer=True), Pow(Symbol('Delta', positive=True), Integer(2)), Pow(Symbol('b', positive=True), Integer(4))), Mul(Integer(72), Symbol('Delta', positive=True), Symbol('r', positive=True, integer=True), Pow(Symbol('b', positive=True), Integer(2))), Mul(Integer(72), Symbol('Delta', positive=True), Pow(Symbol('b', positive=True), Integer(3)), Pow(Symbol('r', positive=True, integer=True), Integer(2)))))

def _e22():
    with evaluate(False):
        return {Symbol('a_norm', positive=True): Pow(Add(floor(Mul(Rational(1, 2), ceiling(Mul(Symbol('Delta', positive=True), Pow(Symbol('delta', positive=True), Integer(-1)))))), floor(Add(Rational(1, 2), Mul(Rational(1, 2), ceiling(Mul(Symbol('Delta', positive=True), Pow(Symbol('delta', positive=True), Integer(-1)))))))), Integer(-1)), Symbol('n', positive=True, integer=True): ceiling(Mul(Symbol('Delta', positive=True), Pow(Symbol('delta', positive=True), Integer(-1))))}

def _e23():
    with evaluate(False):
        return Pow(Add(floor(Mul(Rational(1, 2), ceiling(Mul(Symbol('Delta', positive=True), Pow(Symbol('delta', positive=True), Integer(-1)))))), floor(Add(Rational(1, 2), Mul(Rational(1, 2), ceiling(Mul(Symbol('Delta', positive=True), Pow(Symbol('delta', positive=True), Integer(-1)))))))), Integer(-1))

def _e24():
    with evaluate(False):
        return Pow(Add(floor(Mul(Rational(1, 2), ceiling(Mul(Symbol('Delta', positive=True), Pow(Symbol('delta', positive=True), Integer(-1)))))), floor(Add(Rational(1, 2), Mul(Rational(1, 2), ceiling(Mul(Symbol('Delta', positive=True), Pow(Symbol('delta', positive=True), Integer(-1)))))))), Integer(-1))

def _e25():
    with evaluate(False):
        return Mul(Rational(1, 2), Pow(Add(floor(Mul(Rational(1, 2), ceiling(Mul(Symbol('Delta', positive=True), Pow(Symbol('delta', positive=True), Integer(-1)))))), floor(Add(Rational(1, 2), Mul(Rational(1, 2), ceiling(Mul(Symbol('Delta', positive=True), Pow(Symbol('delta', positive=True), Integer(-1)))))))), Integer(-1)), Add(Pow(floor(Mul(Rational(1, 2), ceiling(Mul(Symbol('Delta', positive=True), Pow(Symbol('delta', positive=True), Integer(-1)))))), Integer(2)), Pow(floor(Add(Rational(1, 2), Mul(Rational(1, 2), ceiling(Mul(Symbol('Delta', positive=True), Pow(Symbol('delta', positive=True), Integer(-1))))))), Integer(2)), Mul(Integer(-1), floor(Add(Rational(1, 2), Mul(Rational(1, 2), ceiling(Mul(Symbol('Delta', positive=True), Pow(Symbol('delta', positive=True), Integer(-1)))))))), floor(Mul(Rational(1, 2), ceiling(Mul(Symbol('Delta', positive=True), Pow(Symbol('delta', positive=True), Integer(-1))))))))

def _e26():
    with evaluate(False):
        return Mul(Rational(1, 6), Add(Integer(1), Mul(Integer(-3), floor(Add(Rational(1, 2), Mul(Rational(1, 2), ceiling(Mul(Symbol('Delta', positive=True), Pow(Symbol('delta', positive=True), Integer(-1)))))))), Mul(Integer(2), Pow(floor(Mul(Rational(1, 2), ceiling(Mul(Symbol('Delta', positive=True), Pow(Symbol('delta', positive=True), Integer(-1)))))), Integer(2))), Mul(Integer(2), Pow(floor(Add(Rational(1, 2), Mul(Rational(1, 2), ceiling(Mul(Symbol('Delta', positive=True), Pow(Symbol('delta', positive=True), Integer(-1))))))), Integer(2))), Mul(Integer(3), floor(Mul(Rational(1, 2), ceiling(Mul(Symbol('Delta', positive=True), Pow(Symbol('delta', positive=True), Integer(-1))))))), Mul(Integer(-2), floor(Mul(Rational(1, 2), ceiling(Mul(Symbol('Delta', positive=True), Pow(Symbol('delta', positive=True), Integer(-1)))))), floor(Add(Rational(1, 2), Mul(Rational(1, 2), ceiling(Mul(Symbol('Delta', positive=True), Pow(Symbol('delta', positive=True), Integer(-1))))))))))

def _e27():
    with evaluate(False):
        return ceiling(Mul(Symbol('Delta', positive=True), Pow(Symbol('delta', positive=True), Integer(-1))))

def _e28():
    with evaluate(False):
        return ceiling(Mul(Symbol('Delta', positive=True), Pow(Symbol('delta', positive=True), Integer(-1))))

def _e29():
    with evaluate(False):
        return Pow(Add(floor(Mul(Rational(1, 2), ceiling(Mul(Symbol('Delta', positive=True), Pow(Symbol('delta', positive=True), Integer(-1)))))), floor(Add(Rational(1, 2), Mul(Rational(1, 2), ceiling(Mul(Symbol('Delta', positive=True), Pow(Symbol('delta', positive=True), Integer(-1)))))))), Integer(-1))

def _e30():
    with evaluate(False):
        return Pow(Add(floor(Mul(Rational(1, 2), ceiling(Mul(Symbol('Delta', positive=True), Pow(Symbol('delta', positive=True), Integer(-1)))))), floor(Add(Rational(1, 2), Mul(Rational(1, 2), ceiling(Mul(Symbol('Delta', positive=True), Pow(Symbol('delta', positive=True), Integer(-1)))))))), Integer(-1))

def _e31():
    with evaluate(False):
        return Mul(Rational(1, 2), Pow(Add(floor(Mul(Rational(1, 2), ceiling(Mul(Symbol('Delta', positive=True), Pow(Symbol('delta', positive=True), Integer(-1)))))), floor(Add(Rational(1, 2), Mul(Rational(1, 2), ceiling(Mul(Symbol('Delta', positive=True), Pow(Symbol('delta', positive=True), Integer(-1)))))))), Integer(-1)), Add(Pow(floor(Mul(Rational(1, 2), ceiling(Mul(Symbol('Delta', positive=True), Pow(Symbol('delta', positive=True), Integer(-1)))))), Integer(2)), Pow(floor(Add(Rational(1, 2), Mul(Rational(1, 2), ceiling(Mul(Symbol('Delta', positive=True), Pow(Symbol('delta', positive=True), Integer(-1))))))), Integer(2)), Mul(Integer(-1), floor(Add(Rational(1, 2), Mul(Rational(1, 2), ceiling(Mul(Symbol('Delta', positive=True), Pow(Symbol('delta', positive=True), Integer(-1)))))))), floor(Mul(Rational(1, 2), ceiling(Mul(Symbol('Delta', positive=True), Pow(Symbol('delta', positive=True), Integer(-1))))))))

def _e32():
    with evaluate(False):
        return Mul(Rational(1, 6), Add(Integer(1), Mul(Integer(-3), floor(Add(Rational(1, 2), Mul(Rational(1, 2), ceiling(Mul(Symbol('Delta', positive=True), Pow(Symbol('delta', positive=True), Integer(-1)))))))), Mul(Integer(2), Pow(floor(Mul(Rational(1, 2), ceiling(Mul(Symbol('Delta', positive=True), Pow(Symbol('delta', positive=True), Integer(-1)))))), Integer(2))), Mul(Integer(2), Pow(floor(Add(Rational(1, 2), Mul(Rational(1, 2), ceiling(Mul(Symbol('Delta', positive=True), Pow(Symbol('delta', positive=True), Integer(-1))))))), Integer(2))), Mul(Integer(3), floor(Mul(Rational(1, 2), ceiling(Mul(Symbol('Delta', positive=True), Pow(Symbol('delta', positive=True), Integer(-1))))))), Mul(Integer(-2), floor(Mul(Rational(1, 2), ceiling(Mul(Symbol('Delta', positive=True), Pow(Symbol('delta', positive=True), Integer(-1)))))), floor(Add(Rational(1, 2), Mul(Rational(1, 2), ceiling(Mul(Symbol('Delta', positive=True), Pow(Symbol('delta', positive=True), Integer(-1))))))))))

def _e33():
    with evaluate(False):
        return ceiling(Mul(Symbol('Delta', positive=True), Pow(Symbol('delta', positive=True), Integer(-1))))

def _e34():
    with evaluate(False):
        return ceiling(Mul(Symbol('Delta', positive=True), Pow(Symbol('delta', positive=True), Integer(-1))))

def _e35():
    with evaluate(False):
        return Mul(Rational(1, 2), Pow(Add(floor(Mul(Rational(1, 2), ceiling(Mul(Symbol('Delta', positive=True), Pow(Symbol('delta', positive=True), Integer(-1)))))), floor(Add(Rational(1, 2), Mul(Rational(1, 2), ceiling(Mul(Symbol('Delta', positive=True), Pow(Symbol('delta', positive=True), Integer(-1)))))))), Integer(-1)), Add(Pow(floor(Mul(Rational(1, 2), ceiling(Mul(Symbol('Delta', positive=True), Pow(Symbol('delta', positive=True), Integer(-1)))))), Integer(2)), Pow(floor(Add(Rational(1, 2), Mul(Rational(1, 2), ceiling(Mul(Symbol('Delta', positive=True), Pow(Symbol('delta', positive=True), Integer(-1))))))), Integer(2)), Mul(Integer(-1), floor(Add(Rational(1, 2), Mul(Rational(1, 2), ceiling(Mul(Symbol('Delta', positive=True), Pow(Symbol('delta', positive=True), Integer(-1)))))))), floor(Mul(Rational(1, 2), ceiling(Mul(Symbol('Delta', positive=True), Pow(Symbol('delta', positive=True), Integer(-1))))))))

def _e36():
    with evaluate(False):
        return Mul(Rational(1, 6), Add(Integer(1), Mul(Integer(-3), floor(Add(Rational(1, 2), Mul(Rational(1, 2), ceiling(Mul(Symbol('Delta', positive=True), Pow(Symbol('delta', positive=True), Integer(-1)))))))), Mul(Integer(2), Pow(floor(Mul(Rational(1, 2), ceiling(Mul(Symbol('Delta', positive=True), Pow(Symbol('delta', positive=True), Integer(-1)))))), Integer(2))), Mul(Integer(2), Pow(floor(Add(Rational(1, 2), Mul(Rational(1, 2), ceiling(Mul(Symbol('Delta', positive=True), Pow(Symbol('delta', positive=True), Integer(-1))))))), Integer(2))), Mul(Integer(3), floor(Mul(Rational(1, 2), ceiling(Mul(Symbol('Delta', positive=True), Pow(Symbol('delta', positive=True), Integer(-1))))))), Mul(Integer(-2), floor(Mul(Rational(1, 2), ceiling(Mul(Symbol('Delta', positive=True), Pow(Symbol('delta', positive=True), Integer(-1)))))), floor(Add(Rational(1, 2), Mul(Rational(1, 2), ceiling(Mul(Symbol('Delta', positive=True), Pow(Symbol('delta', positive=True), Integer(-1))))))))))

def _e37():
    with evaluate(False):
        return Mul(Rational(1, 2), Pow(Add(floor(Mul(Rational(1, 2), ceiling(Mul(Symbol('Delta', positive=True), Pow(Symbol('delta', positive=True), Integer(-1)))))), floor(Add(Rational(1, 2), Mul(Rational(1, 2), ceiling(Mul(Symbol('Delta', positive=True), Pow(Symbol('delta', positive=True), Integer(-1)))))))), Integer(-1)), Add(Pow(floor(Mul(Rational(1, 2), ceiling(Mul(Symbol('Delta', positive=True), Pow(Symbol('delta', positive=True), Integer(-1)))))), Integer(2)), Pow(floor(Add(Rational(1, 2), Mul(Rational(1, 2), ceiling(Mul(Symbol('Delta', positive=True), Pow(Symbol('delta', positive=True), Integer(-1))))))), Integer(2)), Mul(Integer(-1), floor(Add(Rational(1, 2), Mul(Rational(1, 2), ceiling(Mul(Symbol('Delta', positive=True), Pow(Symbol('delta', positive=True), Integer(-1)))))))), floor(Mul(Rational(1, 2), ceiling(Mul(Symbol('Delta', positive=True), Pow(Symbol('delta', positive=True), Integer(-1))))))))

def _e38():
    with evaluate(False):
        return Mul(Rational(1, 6), Add(Integer(1), Mul(Integer(-3), floor(Add(Rational(1, 2), Mul(Rational(1, 2), ceiling(Mul(Symbol('Delta', positive=True), Pow(Symbol('delta', positive=True), Integer(-1)))))))), Mul(Integer(2), Pow(floor(Mul(Rational(1, 2), ceiling(Mul(Symbol('Delta', positive=True), Pow(Symbol('delta', positive=True), Integer(-1)))))), Integer(2))), Mul(Integer(2), Pow(floor(Add(Rational(1, 2), Mul(Rational(1, 2), ceiling(Mul(Symbol('Delta', positive=True), Pow(Symbol('delta', positive=True), Integer(-1))))))), Integer(2))), Mul(Integer(3), floor(Mul(Rational(1, 2), ceiling(Mul(Symbol('Delta', positive=True), Pow(Symbol('delta', positive=True), Integer(-1))))))), Mul(Integer(-2), floor(Mul(Rational(1, 2), ceiling(Mul(Symbol('Delta', positive=True), Pow(Symbol('delta', positive=True), Integer(-1)))))), floor(Add(Rational(1, 2), Mul(Rational(1, 2), ceiling(Mul(Symbol('Delta', positive=True), Pow(Symbol('delta', positive=True), Integer(-1))))))))))

def _e39():
    with evaluate(False):
        return {Symbol('a_norm', positive=True): Mul(Rational(1, 2), Pow(Integer(2), Rational(1, 2)), Pow(pi, Rational(-1, 2)), Pow(Symbol('sigma', positive=True), Integer(-1)))}

def _e40():
    with evaluate(False):
        return Mul(Symbol('sigma', positive=True), Pow(Integer(2), Rational(1, 2)), Pow(pi, Rational(-1, 2)))

def _e41():
    with evaluate(False):
        return Pow(Symbol('sigma', positive=True), Integer(2))

def _e42():
    with evaluate(False):
        return Mul(Rational(1, 2), Pow(Integer(2), Rational(1, 2)), Pow(pi, Rational(-1, 2)), Pow(Symbol('sigma', positive=True), Integer(-1)))

def _e43():
    with evaluate(False):
        return Mul(Rational(1, 2), Pow(Integer(2), Rational(1, 2)), Pow(pi, Rational(-1, 2)), Pow(Symbol('sigma', positive=True), Integer(-1)))

def _e44():
    with evaluate(False):
        return None

def _e45():
    with evaluate(False):
        return None

def _e46():
    with evaluate(False):
        return Mul(Symbol('sigma', positive=True), Pow(Integer(2), Rational(1, 2)), Pow(pi, Rational(-1, 2)))

def _e47():
    with evaluate(False):
        return Pow(Symbol('sigma', positive=True), Integer(2))

def _e48():
    with evaluate(False):
        return Mul(Rational(1, 2), Pow(Integer(2), Rational(1, 2)), Pow(pi, Rational(-1, 2)), Pow(Symbol('sigma', positive=True), Integer(-1)))

def _e49():
    with evaluate(False):
        return Mul(Rational(1, 2), Pow(Integer(2), Rational(1, 2)), Pow(pi, Rational(-1, 2)), Pow(Symbol('sigma', positive=True), Integer(-1)))

def _e50():
    with evaluate(False):
        return Mul(Symbol('sigma', positive=True), Pow(Integer(2), Rational(1, 2)), Pow(pi, Rational(-1, 2)))

def _e51():
    with evaluate(False):
        return Pow(Symbol('sigma', positive=True), Integer(2))

def _e52():
    with evaluate(False):
        return Mul(Symbol('sigma', positive=True), Pow(Integer(2), Rational(1, 2)), Pow(pi, Rational(-1, 2)))

def _e53():
    with evaluate(False):
        return Pow(Symbol('sigma', positive=True), Integer(2))

def _e54():
    with evaluate(False):
        return {Symbol('a_norm', positive=True): Mul(Rational(1, 2), Symbol('eps', positive=True), Pow(pi, Rational(-1, 2)), Pow(Symbol('Delta', positive=True), Integer(-1)), Pow(log(Mul(Rational(5, 4), Pow(Symbol('delta', positive=True), Integer(-1)))), Rational(-1, 2))), Symbol('sigma', positive=True): Mul(Symbol('Delta', positive=True), Pow(Integer(2), Rational(1, 2)), Pow(Symbol('eps', positive=True), Integer(-1)), Pow(log(Mul(Rational(5, 4), Pow(Symbol('delta', positive=True), Integer(-1)))), Rational(1, 2)))}

def _e55():
    with evaluate(False):
        return Mul(Integer(2), Symbol('Delta', positive=True), Pow(pi, Rational(-1, 2)), Pow(Symbol('eps', positive=True), Integer(-1)), Pow(log(Mul(Rational(5, 4), Pow(Symbol('delta', positive=True), Integer(-1)))), Rational(1, 2)))

def _e56():
    with evaluate(False):
        return Mul(Integer(2), Pow(Symbol('Delta', positive=True), Integer(2)), Pow(Symbol('eps', positive=True), Integer(-2)), log(Mul(Rational(5, 4), Pow(Symbol('delta', positive=True), Integer(-1)))))

def _e57():
    with evaluate(False):
        return Mul(Rational(1, 2), Symbol('eps', positive=True), Pow(pi, Rational(-1, 2)), Pow(Symbol('Delta', positive=True), Integer(-1)), Pow(log(Mul(Rational(5, 4), Pow(Symbol('delta', positive=True), Integer(-1)))), Rational(-1, 2)))

def _e58():
    with evaluate(False):
        return Mul(Rational(1, 2), Symbol('eps', positive=True), Pow(pi, Rational(-1, 2)), Pow(Symbol('Delta', positive=True), Integer(-1)), Pow(log(Mul(Rational(5, 4), Pow(Symbol('delta', positive=True), Integer(-1)))), Rational(-1, 2)))

def _e59():
    with evaluate(False):
        return Mul(Symbol('Delta', positive=True), Pow(Integer(2), Rational(1, 2)), Pow(Symbol('eps', positive=True), Integer(-1)), Pow(log(Mul(Rational(5, 4), Pow(Symbol('delta', positive=True), Integer(-1)))), Rational(1, 2)))

def _e60():
    with evaluate(False):
        return Mul(Symbol('Delta', positive=True), Pow(Integer(2), Rational(1, 2)), Pow(Symbol('eps', positive=True), Integer(-1)), Pow(log(Mul(Rational(5, 4), Pow(Symbol('delta', positive=True), Integer(-1)))), Rational(1, 2)))

def _e61():
    with evaluate(False):
        return Mul(Integer(2), Symbol('Delta', positive=True), Pow(pi, Rational(-1, 2)), Pow(Symbol('eps', positive=True), Integer(-1)), Pow(log(Mul(Rational(5, 4), Pow(Symbol('delta', positive=True), Integer(-1)))), Rational(1, 2)))

def _e62():
    with evaluate(False):
        return Mul(Integer(2), Pow(Symbol('Delta', positive=True), Integer(2)), Pow(Symbol('eps', positive=True), Integer(-2)), log(Mul(Rational(5, 4), Pow(Symbol('delta', positive=True), Integer(-1)))))

def _e63():
    with evaluate(False):
        return Mul(Rational(1, 2), Symbol('eps', positive=True), Pow(pi, Rational(-1, 2)), Pow(Symbol('Delta', positive=True), Integer(-1)), Pow(log(Mul(Rational(5, 4), Pow(Symbol('delta', positive=True), Integer(-1)))), Rational(-1, 2)))

def _e64():
    with evaluate(False):
        return Mul(Rational(1, 2), Symbol('eps', positive=True), Pow(pi, Rational(-1, 2)), Pow(Symbol('Delta', positive=True), Integer(-1)), Pow(log(Mul(Rational(5, 4), Pow(Symbol('delta', positive=True), Integer(-1)))), Rational(-1, 2)))

def _e65():
    with evaluate(False):
        return Mul(Symbol('Delta', positive=True), Pow(Integer(2), Rational(1, 2)), Pow(Symbol('eps', positive=True), Integer(-1)), Pow(log(Mul(Rational(5, 4), Pow(Symbol('delta', positive=True), Integer(-1)))), Rational(1, 2)))

def _e66():
    with evaluate(False):
        return Mul(Symbol('Delta', positive=True), Pow(Integer(2), Rational(1, 2)), Pow(Symbol('eps', positive=True), Integer(-1)), Pow(log(Mul(Rational(5, 4), Pow(Symbol('delta', positive=True), Integer(-1)))), Rational(1, 2)))

def _e67():
    with evaluate(False):
        return Mul(Integer(2), Symbol('Delta', positive=True), Pow(pi, Rational(-1, 2)), Pow(Symbol('eps', positive=True), Integer(-1)), Pow(log(Mul(Rational(5, 4), Pow(Symbol('delta', positive=True), Integer(-1)))), Rational(1, 2)))

def _e68():
    with evaluate(False):
        return Mul(Integer(2), Pow(Symbol('Delta', positive=True), Integer(2)), Pow(Symbol('eps', positive=True), Integer(-2)), log(Mul(Rational(5, 4), Pow(Symbol('delta', positive=True), Integer(-1)))))

def _e69():
    with evaluate(False):
        return Mul(Integer(2), Symbol('Delta', positive=True), Pow(pi, Rational(-1, 2)), Pow(Symbol('eps', positive=True), Integer(-1)), Pow(log(Mul(Rational(5, 4), Pow(Symbol('delta', positive=True), Integer(-1)))), Rational(1, 2)))

def _e70():
    with evaluate(False):
        return Mul(Integer(2), Pow(Symbol('Delta', positive=True), Integer(2)), Pow(Symbol('eps', positive=True), Integer(-2)), log(Mul(Rational(5, 4), Pow(Symbol('delta', positive=True), Integer(-1)))))

def _e71():
    with evaluate(False):
        return {Symbol('a_norm', positive=True): Mul(Rational(1, 2), Pow(Symbol('Delta', positive=True), Integer(-1)), Pow(Add(Mul(Integer(-1), Symbol('gamma', nonnegative=True)), Mul(Integer(-1), Pow(Symbol('b', positive=True), Rational(1, 2))), Mul(Symbol('gamma', nonnegative=True), Pow(Symbol('b', positive=True), Rational(1, 2)))), Integer(-1)), Add(Integer(-1), Pow(Symbol('b', positive=True), Rational(1, 2))))}

def _e72():
    with evaluate(False):
        return Mul(Integer(-2), Symbol('Delta', positive=True), Pow(Symbol('b', positive=True), Rational(1, 4)), Pow(Add(Integer(-1), Pow(Symbol('b', positive=True), Rational(1, 2))), Integer(-1)))

def _e73():
    with evaluate(False):
        return Mul(Rational(1, 2), Pow(Symbol('Delta', positive=True), Integer(2)), Pow(Add(Integer(-1), Pow(Symbol('b', positive=True), Rational(1, 2))), Integer(-2)), Add(Mul(Integer(4), Pow(Symbol('b', positive=True), Rational(1, 2))), Mul(Integer(2), Pow(Integer(2), Rational(1, 3)), Pow(Symbol('b', positive=True), Rational(1, 3)), Pow(Add(Integer(1), Pow(Symbol('b', positive=True), Rational(1, 2))), Rational(2, 3)))))

def _e74():
    with evaluate(False):
        return Add(Mul(Pow(Symbol('b', positive=True), Rational(1, 2)), Pow(Add(Integer(-1), Pow(Symbol('b', positive=True), Rational(1, 2))), Integer(-1))), Mul(Pow(Symbol('b', positive=True), Rational(1, 4)), Pow(Add(Integer(1), Mul(Integer(-1), Pow(Symbol('b', positive=True), Rational(1, 2)))), Integer(-1))))

def _e75():
    with evaluate(False):
        return Add(Mul(Pow(Symbol('b', positive=True), Rational(1, 2)), Pow(Add(Integer(-1), Pow(Symbol('b', positive=True), Rational(1, 2))), Integer(-1))), Mul(Rational(1, 2), Pow(Integer(2), Rational(2, 3)), Pow(Symbol('b', positive=True), Rational(1, 6)), Pow(Add(Integer(1), Pow(Symbol('b', positive=True), Rational(1, 2))), Rational(1, 3)), Pow(Add(Integer(1), Mul(Integer(-1), Pow(Symbol('b', positive=True), Rational(1, 2)))), Integer(-1))))

def _e76():
    with evaluate(False):
        return Mul(Integer(-2), Symbol('Delta', positive=True), Pow(Symbol('b', positive=True), Rational(1, 4)), Pow(Add(Integer(-1), Pow(Symbol('b', positive=True), Rational(1, 2))), Integer(-1)))

def _e77():
    with evaluate(False):
        return Mul(Pow(Symbol('Delta', positive=True), Integer(2)), Pow(Symbol('b', positive=True), Rational(1, 3)), Pow(Add(Integer(-1), Pow(Symbol('b', positive=True), Rational(1, 2))), Integer(-2)), Add(Mul(Integer(2), Pow(Symbol('b', positive=True), Rational(1, 6))), Mul(Pow(Integer(2), Rational(1, 3)), Pow(Add(Integer(1), Pow(Symbol('b', positive=True), Rational(1, 2))), Rational(2, 3)))))

def _e78():
    with evaluate(False):
        return Mul(Pow(Symbol('b', positive=True), Rational(1, 4)), Pow(Add(Integer(1), Pow(Symbol('b', positive=True), Rational(1, 4))), Integer(-1)))

def _e79():
    with evaluate(False):
        return Mul(Pow(Add(Integer(-1), Pow(Symbol('b', positive=True), Rational(1, 2))), Integer(-1)), Add(Pow(Symbol('b', positive=True), Rational(1, 2)), Mul(Rational(-1, 2), Pow(Integer(2), Rational(2, 3)), Pow(Symbol('b', positive=True), Rational(1, 6)), Pow(Add(Integer(1), Pow(Symbol('b', positive=True), Rational(1, 2))), Rational(1, 3)))))

def _e80():
    with evaluate(False):
        return Mul(Rational(1, 2), Symbol('Delta', positive=True), Pow(Add(Symbol('gamma', nonnegative=True), Pow(Symbol('b', positive=True), Rational(1, 2)), Mul(Integer(-1), Symbol('b', positive=True)), Mul(Symbol('gamma', nonnegative=True), Symbol('b', positive=True)), Mul(Integer(-2), Symbol('gamma', nonnegative=True), Pow(Symbol('b', positive=True), Rational(1, 2)))), Integer(-1)), Add(Symbol('b', positive=True), Pow(Symbol('gamma', nonnegative=True), Integer(2)), Pow(Symbol('b', positive=True), Rational(1, 2)), Mul(Symbol('b', positive=True), Pow(Symbol('gamma', nonnegative=True), Integer(2))), Mul(Integer(-2), Symbol('gamma', nonnegative=True), Symbol('b', positive=True)), Mul(Integer(-2), Pow(Symbol('gamma', nonnegative=True), Integer(2)), Pow(Symbol('b', positive=True), Rational(1, 2))), Mul(Integer(2), Symbol('gamma', nonnegative=True), Pow(Symbol('b', positive=True), Rational(1, 2)))))

def _e81():
    with evaluate(False):
        return Mul(Rational(1, 3), Pow(Symbol('Delta', positive=True), Integer(2)), Pow(Add(Symbol('gamma', nonnegative=True), Pow(Symbol('b', positive=True), Rational(1, 2)), Pow(Symbol('b', positive=True), Rational(3, 2)), Mul(Integer(-2), Symbol('b', positive=True)), Mul(Integer(-1), Symbol('gamma', nonnegative=True), Pow(Symbol('b', positive=True), Rational(3, 2))), Mul(Integer(-3), Symbol('gamma', nonnegative=True), Pow(Symbol('b', positive=True), Rational(1, 2))), Mul(Integer(3), Symbol('gamma', nonnegative=True), Symbol('b', positive=True))), Integer(-1)), Add(Pow(Symbol('gamma', nonnegative=True), Integer(3)), Pow(Symbol('b', positive=True), Rational(1, 2)), Pow(Symbol('b', positive=True), Rational(3, 2)), Mul(Integer(4), Symbol('b', positive=True)), Mul(Integer(-1), Pow(Symbol('gamma', nonnegative=True), Integer(3)), Pow(Symbol('b', positive=True), Rational(3, 2))), Mul(Integer(-6), Symbol('b', positive=True), Pow(Symbol('gamma', nonnegative=True), Integer(2))), Mul(Integer(-3), Symbol('gamma', nonnegative=True), Pow(Symbol('b', positive=True), Rational(3, 2))), Mul(Integer(-3), Pow(Symbol('gamma', nonnegative=True), Integer(3)), Pow(Symbol('b', positive=True), Rational(1, 2))), Mul(Integer(3), Symbol('gamma', nonnegative=True), Pow(Symbol('b', positive=True), Rational(1, 2))), Mul(Integer(3), Symbol('b', positive=True), Pow(Symbol('gamma', nonnegative=True), Integer(3))), Mul(Integer(3), Pow(Symbol('gamma', nonnegative=True), Integer(2)), Pow(Symbol('b', positive=True), Rational(1, 2))), Mul(Integer(3), Pow(Symbol('gamma', nonnegative=True), Integer(2)), Pow(Symbol('b', positive=True), Rational(3, 2)))))

def _e82():
    with evaluate(False):
        return Mul(Integer(-2), Symbol('Delta', positive=True), Pow(Symbol('b', positive=True), Rational(1, 4)), Pow(Add(Integer(-1), Pow(Symbol('b', positive=True), Rational(1, 2))), Integer(-1)))

def _e83():
    with evaluate(False):
        return Mul(Rational(1, 2), Pow(Symbol('Delta', positive=True), Integer(2)), Pow(Add(Integer(-1), Pow(Symbol('b', positive=True), Rational(1, 2))), Integer(-2)), Add(Mul(Integer(4), Pow(Symbol('b', positive=True), Rational(1, 2))), Mul(Integer(2), Pow(Integer(2), Rational(1, 3)), Pow(Symbol('b', positive=True), Rational(1, 3)), Pow(Add(Integer(1), Pow(Symbol('b', positive=True), Rational(1, 2))), Rational(2, 3)))))

def _e84():
    with evaluate(False):
        return Add(Mul(Pow(Symbol('b', positive=True), Rational(1, 2)), Pow(Add(Integer(-1), Pow(Symbol('b', positive=True), Rational(1, 2))), Integer(-1))), Mul(Pow(Symbol('b', positive=True), Rational(1, 4)), Pow(Add(Integer(1), Mul(Integer(-1), Pow(Symbol('b', positive=True), Rational(1, 2)))), Integer(-1))))

def _e85():
    with evaluate(False):
        return Add(Mul(Pow(Symbol('b', positive=True), Rational(1, 2)), Pow(Add(Integer(-1), Pow(Symbol('b', positive=True), Rational(1, 2))), Integer(-1))), Mul(Rational(1, 2), Pow(Integer(2), Rational(2, 3)), Pow(Symbol('b', positive=True), Rational(1, 6)), Pow(Add(Integer(1), Pow(Symbol('b', positive=True), Rational(1, 2))), Rational(1, 3)), Pow(Add(Integer(1), Mul(Integer(-1), Pow(Symbol('b', positive=True), Rational(1, 2)))), Integer(-1))))

def _e86():
    with evaluate(False):
        return Mul(Pow(Add(Integer(-1), Pow(Symbol('b', positive=True), Rational(1, 2))), Integer(-1)), Pow(Add(Mul(Integer(-1), Symbol('gamma', nonnegative=True)), Mul(Integer(-1), Pow(Symbol('b', positive=True), Rational(1, 2))), Mul(Symbol('gamma', nonnegative=True), Pow(Symbol('b', positive=True), Rational(1, 2)))), Integer(-2)), Add(Mul(Symbol('Delta', positive=True), Pow(Symbol('b', positive=True), Rational(1, 2))), Mul(Symbol('Delta', positive=True), Pow(Symbol('b', positive=True), Rational(3, 2))), Mul(Integer(-1), Symbol('Delta', positive=True), Pow(Symbol('gamma', nonnegative=True), Integer(2))), Mul(Integer(-2), Symbol('Delta', positive=True), Symbol('b', positive=True)), Mul(Symbol('Delta', positive=True), Pow(Symbol('gamma', nonnegative=True), Integer(2)), Pow(Symbol('b', positive=True), Rational(3, 2))), Mul(Integer(-3), Symbol('Delta', positive=True), Symbol('b', positive=True), Pow(Symbol('gamma', nonnegative=True), Integer(2))), Mul(Integer(-2), Symbol('gamma', nonnegative=True), Symbol('Delta', positive=True), Pow(Symbol('b', positive=True), Rational(1, 2))), Mul(Integer(-2), Symbol('gamma', nonnegative=True), Symbol('Delta', positive=True), Pow(Symbol('b', positive=True), Rational(3, 2))), Mul(Integer(3), Symbol('Delta', positive=True), Pow(Symbol('gamma', nonnegative=True), Integer(2)), Pow(Symbol('b', positive=True), Rational(1, 2))), Mul(Integer(4), Symbol('gamma', nonnegative=True), Symbol('Delta', positive=True), Symbol('b', positive=True))))

def _e87():
    with evaluate(False):
        return Mul(Rational(1, 3), Pow(Add(Integer(-1), Pow(Symbol('b', positive=True), Rational(1, 2))), Integer(-2)), Pow(Add(Mul(Integer(-1), Symbol('gamma', nonnegative=True)), Mul(Integer(-1), Pow(Symbol('b', positive=True), Rational(1, 2))), Mul(Symbol('gamma', nonnegative=True), Pow(Symbol('b', positive=True), Rational(1, 2)))), Integer(-2)), Add(Mul(Integer(-4), Pow(Symbol('Delta', positive=True), Integer(2)), Pow(Symbol('b', positive=True), Integer(2))), Mul(Integer(-2), Pow(Symbol('Delta', positive=True), Integer(2)), Pow(Symbol('b', positive=True), Rational(1, 2))), Mul(Integer(4), Pow(Symbol('gamma', nonnegative=True), Integer(3)), Pow(Symbol('Delta', positive=True), Integer(2))), Mul(Integer(6), Pow(Symbol('Delta', positive=True), Integer(2)), Pow(Symbol('b', positive=True), Rational(3, 2))), Mul(Integer(-36), Symbol('b', positive=True), Pow(Symbol('gamma', nonnegative=True), Integer(2)), Pow(Symbol('Delta', positive=True), Integer(2))), Mul(Integer(-24), Symbol('gamma', nonnegative=True), Pow(Symbol('Delta', positive=True), Integer(2)), Pow(Symbol('b', positive=True), Rational(3, 2))), Mul(Integer(-16), Pow(Symbol('gamma', nonnegative=True), Integer(3)), Pow(Symbol('Delta', positive=True), Integer(2)), Pow(Symbol('b', positive=True), Rational(1, 2))), Mul(Integer(-16), Pow(Symbol('gamma', nonnegative=True), Integer(3)), Pow(Symbol('Delta', positive=True), Integer(2)), Pow(Symbol('b', positive=True), Rational(3, 2))), Mul(Integer(-12), Pow(Symbol('gamma', nonnegative=True), Integer(2)), Pow(Symbol('Delta', positive=True), Integer(2)), Pow(Symbol('b', positive=True), Integer(2))), Mul(Integer(4), Pow(Symbol('gamma', nonnegative=True), Integer(3)), Pow(Symbol('Delta', positive=True), Integer(2)), Pow(Symbol('b', positive=True), Integer(2))), Mul(Integer(12), Symbol('gamma', nonnegative=True), Symbol('b', positive=True), Pow(Symbol('Delta', positive=True), Integer(2))), Mul(Integer(12), Symbol('gamma', nonnegative=True), Pow(Symbol('Delta', positive=True), Integer(2)), Pow(Symbol('b', positive=True), Integer(2))), Mul(Integer(12), Pow(Symbol('gamma', nonnegative=True), Integer(2)), Pow(Symbol('Delta', positive=True), Integer(2)), Pow(Symbol('b', positive=True), Rational(1, 2))), Mul(Integer(24), Symbol('b', positive=True), Pow(Symbol('gamma', nonnegative=True), Integer(3)), Pow(Symbol('Delta', positive=True), Integer(2))), Mul(Integer(36), Pow(Symbol('gamma', nonnegative=True), Integer(2)), Pow(Symbol('Delta', positive=True), Integer(2)), Pow(Symbol('b', positive=True), Rational(3, 2)))))

def _e88():
    with evaluate(False):
        return {Symbol('a_norm', positive=True): Mul(Rational(1, 2), Symbol('eps', positive=True), Pow(Symbol('Delta', positive=True), Integer(-1)))}

def _e89():
    with evaluate(False):
        return Mul(Symbol('Delta', positive=True), Pow(Symbol('eps', positive=True), Integer(-1)))

def _e90():
    with evaluate(False):
        return Mul(Integer(2), Pow(Symbol('Delta', positive=True), Integer(2)), Pow(Symbol('eps', positive=True), Integer(-2)))

def _e91():
    with evaluate(False):
        return Mul(Symbol('Delta', positive=True), Pow(Symbol('eps', positive=True), Integer(-1)))

def _e92():
    with evaluate(False):
        return Mul(Integer(2), Pow(Symbol('Delta', positive=True), Integer(2)), Pow(Symbol('eps', positive=True), Integer(-2)))

def _e93():
    with evaluate(False):
        return Mul(Symbol('Delta', positive=True), Pow(Symbol('eps', positive=True), Integer(-1)))

def _e94():
    with evaluate(False):
        return Mul(Integer(2), Pow(Symbol('Delta', positive=True), Integer(2)), Pow(Symbol('eps', positive=True), Integer(-2)))

def _e95():
    with evaluate(False):
        return Mul(Symbol('Delta', positive=True), Pow(Symbol('eps', positive=True), Integer(-1)))

def _e96():
    with evaluate(False):
        return Mul(Integer(2), Pow(Symbol('Delta', positive=True), Integer(2)), Pow(Symbol('eps', positive=True), Integer(-2)))

def _e97():
    with evaluate(False):
        return {Symbol('a_norm', positive=True): Mul(Rational(1, 2), Symbol('eps', positive=True), Pow(Symbol('Delta', positive=True), Integer(-1)))}

def _e98():
    with evaluate(False):
        return Mul(Integer(2), Symbol('Delta', positive=True), Pow(Symbol('eps', positive=True), Integer(-1)))

def _e99():
    with evaluate(False):
        return Mul(Integer(4), Pow(Symbol('Delta', positive=True), Integer(2)), Pow(Symbol('eps', positive=True), Integer(-2)))

def _e100():
    with evaluate(False):
        return Mul(Integer(2), Symbol('Delta', positive=True), Pow(Symbol('eps', positive=True), Integer(-1)))

def _e101():
    with evaluate(False):
        return Mul(Integer(4), Pow(Symbol('Delta', positive=True), Integer(2)), Pow(Symbol('eps', positive=True), Integer(-2)))

def _e102():
    with evaluate(False):
        return Mul(Symbol('Delta', positive=True), Pow(Symbol('eps', positive=True), Integer(-1)))

def _e103():
    with evaluate(False):
        return Mul(Integer(2), Pow(Symbol('Delta', positive=True), Integer(2)), Pow(Symbol('eps', positive=True), Integer(-2)))

def _e104():
    with evaluate(False):
        return Mul(Integer(2), Symbol('Delta', positive=True), Pow(Symbol('eps', positive=True), Integer(-1)))

def _e105():
    with evaluate(False):
        return Mul(Integer(4), Pow(Symbol('Delta', positive=True), Integer(2)), Pow(Symbol('eps', positive=True), Integer(-2)))

def _e106():
    with evaluate(False):
        return {Symbol('a_norm', positive=True): Mul(Pow(Add(Integer(1), exp(Mul(Symbol('eps', positive=True), Pow(Symbol('Delta', positive=True), Integer(-1))))), Integer(-1)), Add(Integer(-1), exp(Mul(Symbol('eps', positive=True), Pow(Symbol('Delta', positive=True), Integer(-1))))))}

def _e107():
    with evaluate(False):
        return Mul(Integer(4), Pow(Add(Integer(1), exp(Mul(Symbol('eps', positive=True), Pow(Symbol('Delta', positive=True), Integer(-1))))), Integer(-1)), Pow(Add(Integer(-1), exp(Mul(Symbol('eps', positive=True), Pow(Symbol('Delta', positive=True), Integer(-1))))), Integer(-1)), exp(Mul(Symbol('eps', positive=True), Pow(Symbol('Delta', positive=True), Integer(-1)))))

def _e108():
    with evaluate(False):
        return Mul(Integer(4), Pow(Add(Integer(-1), exp(Mul(Symbol('eps', positive=True), Pow(Symbol('Delta', positive=True), Integer(-1))))), Integer(-2)), exp(Mul(Symbol('eps', positive=True), Pow(Symbol('Delta', positive=True), Integer(-1)))))

def _e109():
    with evaluate(False):
        return Mul(Integer(4), Pow(Add(Integer(-1), exp(Mul(Integer(2), Symbol('eps', positive=True), Pow(Symbol('Delta', positive=True), Integer(-1))))), Integer(-1)), exp(Mul(Symbol('eps', positive=True), Pow(Symbol('Delta', positive=True), Integer(-1)))))

def _e110():
    with evaluate(False):
        return Mul(Integer(4), Pow(Add(Integer(-1), exp(Mul(Symbol('eps', positive=True), Pow(Symbol('Delta', positive=True), Integer(-1))))), Integer(-2)), exp(Mul(Symbol('eps', positive=True), Pow(Symbol('Delta', positive=True), Integer(-1)))))

def _e111():
    with evaluate(False):
        return Mul(Integer(2), Pow(Add(Integer(1), exp(Mul(Symbol('eps', positive=True), Pow(Symbol('Delta', positive=True), Integer(-1))))), Integer(-1)), Pow(Add(Integer(-1), exp(Mul(Symbol('eps', positive=True), Pow(Symbol('Delta', positive=True), Integer(-1))))), Integer(-1)), exp(Mul(Symbol('eps', positive=True), Pow(Symbol('Delta', positive=True), Integer(-1)))))

def _e112():
    with evaluate(False):
        return Mul(Integer(2), Pow(Add(Integer(-1), exp(Mul(Symbol('eps', positive=True), Pow(Symbol('Delta', positive=True), Integer(-1))))), Integer(-2)), exp(Mul(Symbol('eps', positive=True), Pow(Symbol('Delta', positive=True), Integer(-1)))))

def _e113():
    with evaluate(False):
        return Mul(Integer(4), Pow(Add(Integer(1), exp(Mul(Symbol('eps', positive=True), Pow(Symbol('Delta', positive=True), Integer(-1))))), Integer(-1)), Pow(Add(Integer(-1), exp(Mul(Symbol('eps', positive=True), Pow(Symbol('Delta', positive=True), Integer(-1))))), Integer(-1)), exp(Mul(Symbol('eps', positive=True), Pow(Symbol('Delta', positive=True), Integer(-1)))))

def _e114():
    with evaluate(False):
        return Mul(Integer(4), Pow(Add(Integer(-1), exp(Mul(Symbol('eps', positive=True), Pow(Symbol('Delta', positive=True), Integer(-1))))), Integer(-2)), exp(Mul(Symbol('eps', positive=True), Pow(Symbol('Delta', positive=True), Integer(-1)))))

def _e115():
    with evaluate(False):
        return {Symbol('a_norm', positive=True): Pow(Add(floor(Mul(Rational(1, 2), ceiling(Mul(Symbol('Delta', positive=True), Pow(Symbol('delta', positive=True), Integer(-1)))))), floor(Add(Rational(1, 2), Mul(Rational(1, 2), ceiling(Mul(Symbol('Delta', positive=True), Pow(Symbol('delta', positive=True), Integer(-1)))))))), Integer(-1)), Symbol('n', positive=True, integer=True): ceiling(Mul(Symbol('Delta', positive=True), Pow(Symbol('delta', positive=True), Integer(-1))))}

def _e116():
    with evaluate(False):
        return Pow(Add(floor(Mul(Rational(1, 2), ceiling(Mul(Symbol('Delta', positive=True), Pow(Symbol('delta', positive=True), Integer(-1)))))), floor(Add(Rational(1, 2), Mul(Rational(1, 2), ceiling(Mul(Symbol('Delta', positive=True), Pow(Symbol('delta', positive=True), Integer(-1)))))))), Integer(-1))

def _e117():
    with evaluate(False):
        return Pow(Add(floor(Mul(Rational(1, 2), ceiling(Mul(Symbol('Delta', positive=True), Pow(Symbol('delta', positive=True), Integer(-1)))))), floor(Add(Rational(1, 2), Mul(Rational(1, 2), ceiling(Mul(Symbol('Delta', positive=True), Pow(Symbol('delta', positive=True), Integer(-1)))))))), Integer(-1))

def _e118():
    with evaluate(False):
        return Mul(Pow(Add(floor(Mul(Rational(1, 2), ceiling(Mul(Symbol('Delta', positive=True), Pow(Symbol('delta', positive=True), Integer(-1)))))), floor(Add(Rational(1, 2), Mul(Rational(1, 2), ceiling(Mul(Symbol('Delta', positive=True), Pow(Symbol('delta', positive=True), Integer(-1)))))))), Integer(-1)), Add(Pow(floor(Mul(Rational(1, 2), ceiling(Mul(Symbol('Delta', positive=True), Pow(Symbol('delta', positive=True), Integer(-1)))))), Integer(2)), Pow(floor(Add(Rational(1, 2), Mul(Rational(1, 2), ceiling(Mul(Symbol('Delta', positive=True), Pow(Symbol('delta', positive=True), Integer(-1))))))), Integer(2)), Mul(Integer(-1), floor(Add(Rational(1, 2), Mul(Rational(1, 2), ceiling(Mul(Symbol('Delta', positive=True), Pow(Symbol('delta', positive=True), Integer(-1)))))))), floor(Mul(Rational(1, 2), ceiling(Mul(Symbol('Delta', positive=True), Pow(Symbol('delta', positive=True), Integer(-1))))))))

def _e119():
    with evaluate(False):
        return Mul(Rational(1, 3), Add(Integer(1), Mul(Integer(-3), floor(Add(Rational(1, 2), Mul(Rational(1, 2), ceiling(Mul(Symbol('Delta', positive=True), Pow(Symbol('delta', positive=True), Integer(-1)))))))), Mul(Integer(2), Pow(floor(Mul(Rational(1, 2), ceiling(Mul(Symbol('Delta', positive=True), Pow(Symbol('delta', positive=True), Integer(-1)))))), Integer(2))), Mul(Integer(2), Pow(floor(Add(Rational(1, 2), Mul(Rational(1, 2), ceiling(Mul(Symbol('Delta', positive=True), Pow(Symbol('delta', positive=True), Integer(-1))))))), Integer(2))), Mul(Integer(3), floor(Mul(Rational(1, 2), ceiling(Mul(Symbol('Delta', positive=True), Pow(Symbol('delta', positive=True), Integer(-1))))))), Mul(Integer(-2), floor(Mul(Rational(1, 2), ceiling(Mul(Symbol('Delta', positive=True), Pow(Symbol('delta', positive=True), Integer(-1)))))), floor(Add(Rational(1, 2), Mul(Rational(1, 2), ceiling(Mul(Symbol('Delta', positive=True), Pow(Symbol('delta', positive=True), Integer(-1))))))))))

def _e120():
    with evaluate(False):
        return ceiling(Mul(Symbol('Delta', positive=True), Pow(Symbol('delta', positive=True), Integer(-1))))

def _e121():
    with evaluate(False):
        return ceiling(Mul(Symbol('Delta', positive=True), Pow(Symbol('delta', positive=True), Integer(-1))))

def _e122():
    with evaluate(False):
        return Pow(Add(floor(Mul(Rational(1, 2), ceiling(Mul(Symbol('Delta', positive=True), Pow(Symbol('delta', positive=True), Integer(-1)))))), floor(Add(Rational(1, 2), Mul(Rational(1, 2), ceiling(Mul(Symbol('Delta', positive=True), Pow(Symbol('delta', positive=True), Integer(-1)))))))), Integer(-1))

def _e123():
    with evaluate(False):
        return Pow(Add(floor(Mul(Rational(1, 2), ceiling(Mul(Symbol('Delta', positive=True), Pow(Symbol('delta', positive=True), Integer(-1)))))), floor(Add(Rational(1, 2), Mul(Rational(1, 2), ceiling(Mul(Symbol('Delta', positive=True), Pow(Symbol('delta', positive=True), Integer(-1)))))))), Integer(-1))

def _e124():
    with evaluate(False):
        return Mul(Pow(Add(floor(Mul(Rational(1, 2), ceiling(Mul(Symbol('Delta', positive=True), Pow(Symbol('delta', positive=True), Integer(-1)))))), floor(Add(Rational(1, 2), Mul(Rational(1, 2), ceiling(Mul(Symbol('Delta', positive=True), Pow(Symbol('delta', positive=True), Integer(-1)))))))), Integer(-1)), Add(Pow(floor(Mul(Rational(1, 2), ceiling(Mul(Symbol('Delta', positive=True), Pow(Symbol('delta', positive=True), Integer(-1)))))), Integer(2)), Pow(floor(Add(Rational(1, 2), Mul(Rational(1, 2), ceiling(Mul(Symbol('Delta', positive=True), Pow(Symbol('delta', positive=True), Integer(-1))))))), Integer(2)), Mul(Integer(-1), floor(Add(Rational(1, 2), Mul(Rational(1, 2), ceiling(Mul(Symbol('Delta', positive=True), Pow(Symbol('delta', positive=True), Integer(-1)))))))), floor(Mul(Rational(1, 2), ceiling(Mul(Symbol('Delta', positive=True), Pow(Symbol('delta', positive=True), Integer(-1))))))))

def _e125():
    with evaluate(False):
        return Mul(Rational(1, 3), Add(Integer(1), Mul(Integer(-3), floor(Add(Rational(1, 2), Mul(Rational(1, 2), ceiling(Mul(Symbol('Delta', positive=True), Pow(Symbol('delta', positive=True), Integer(-1)))))))), Mul(Integer(2), Pow(floor(Mul(Rational(1, 2), ceiling(Mul(Symbol('Delta', positive=True), Pow(Symbol('delta', positive=True), Integer(-1)))))), Integer(2))), Mul(Integer(2), Pow(floor(Add(Rational(1, 2), Mul(Rational(1, 2), ceiling(Mul(Symbol('Delta', positive=True), Pow(Symbol('delta', positive=True), Integer(-1))))))), Integer(2))), Mul(Integer(3), floor(Mul(Rational(1, 2), ceiling(Mul(Symbol('Delta', positive=True), Pow(Symbol('delta', positive=True), Integer(-1))))))), Mul(Integer(-2), floor(Mul(Rational(1, 2), ceiling(Mul(Symbol('Delta', positive=True), Pow(Symbol('delta', positive=True), Integer(-1)))))), floor(Add(Rational(1, 2), Mul(Rational(1, 2), ceiling(Mul(Symbol('Delta', positive=True), Pow(Symbol('delta', positive=True), Integer(-1))))))))))

def _e126():
    with evaluate(False):
        return ceiling(Mul(Symbol('Delta', positive=True), Pow(Symbol('delta', positive=True), Integer(-1))))

def _e127():
    with evaluate(False):
        return ceiling(Mul(Symbol('Delta', positive=True), Pow(Symbol('delta', positive=True), Integer(-1))))

def _e128():
    with evaluate(False):
        return Mul(Rational(1, 2), Pow(Add(floor(Mul(Rational(1, 2), ceiling(Mul(Symbol('Delta', positive=True), Pow(Symbol('delta', positive=True), Integer(-1)))))), floor(Add(Rational(1, 2), Mul(Rational(1, 2), ceiling(Mul(Symbol('Delta', positive=True), Pow(Symbol('delta', positive=True), Integer(-1)))))))), Integer(-1)), Add(Pow(floor(Mul(Rational(1, 2), ceiling(Mul(Symbol('Delta', positive=True), Pow(Symbol('delta', positive=True), Integer(-1)))))), Integer(2)), Pow(floor(Add(Rational(1, 2), Mul(Rational(1, 2), ceiling(Mul(Symbol('Delta', positive=True), Pow(Symbol('delta', positive=True), Integer(-1))))))), Integer(2)), Mul(Integer(-1), floor(Add(Rational(1, 2), Mul(Rational(1, 2), ceiling(Mul(Symbol('Delta', positive=True), Pow(Symbol('delta', positive=True), Integer(-1)))))))), floor(Mul(Rational(1, 2), ceiling(Mul(Symbol('Delta', positive=True), Pow(Symbol('delta', positive=True), Integer(-1))))))))

def _e129():
    with evaluate(False):
        return Mul(Rational(1, 6), Add(Integer(1), Mul(Integer(-3), floor(Add(Rational(1, 2), Mul(Rational(1, 2), ceiling(Mul(Symbol('Delta', positive=True), Pow(Symbol('delta', positive=True), Integer(-1)))))))), Mul(Integer(2), Pow(floor(Mul(Rational(1, 2), ceiling(Mul(Symbol('Delta', positive=True), Pow(Symbol('delta', positive=True), Integer(-1)))))), Integer(2))), Mul(Integer(2), Pow(floor(Add(Rational(1, 2), Mul(Rational(1, 2), ceiling(Mul(Symbol('Delta', positive=True), Pow(Symbol('delta', positive=True), Integer(-1))))))), Integer(2))), Mul(Integer(3), floor(Mul(Rational(1, 2), ceiling(Mul(Symbol('Delta', positive=True), Pow(Symbol('delta', positive=True), Integer(-1))))))), Mul(Integer(-2), floor(Mul(Rational(1, 2), ceiling(Mul(Symbol('Delta', positive=True), Pow(Symbol('delta', positive=True), Integer(-1)))))), floor(Add(Rational(1, 2), Mul(Rational(1, 2), ceiling(Mul(Symbol('Delta', positive=True), Pow(Symbol('delta', positive=True), Integer(-1))))))))))

def _e130():
    with evaluate(False):
        return Mul(Pow(Add(floor(Mul(Rational(1, 2), ceiling(Mul(Symbol('Delta', positive=True), Pow(Symbol('delta', positive=True), Integer(-1)))))), floor(Add(Rational(1, 2), Mul(Rational(1, 2), ceiling(Mul(Symbol('Delta', positive=True), Pow(Symbol('delta', positive=True), Integer(-1)))))))), Integer(-1)), Add(Pow(floor(Mul(Rational(1, 2), ceiling(Mul(Symbol('Delta', positive=True), Pow(Symbol('delta', positive=True), Integer(-1)))))), Integer(2)), Pow(floor(Add(Rational(1, 2), Mul(Rational(1, 2), ceiling(Mul(Symbol('Delta', positive=True), Pow(Symbol('delta', positive=True), Integer(-1))))))), Integer(2)), Mul(Integer(-1), floor(Add(Rational(1, 2), Mul(Rational(1, 2), ceiling(Mul(Symbol('Delta', positive=True), Pow(Symbol('delta', positive=True), Integer(-1)))))))), floor(Mul(Rational(1, 2), ceiling(Mul(Symbol('Delta', positive=True), Pow(Symbol('delta', positive=True), Integer(-1))))))))

def _e131():
    with evaluate(False):
        return Mul(Rational(1, 3), Add(Integer(1), Mul(Integer(-3), floor(Add(Rational(1, 2), Mul(Rational(1, 2), ceiling(Mul(Symbol('Delta', positive=True), Pow(Symbol('delta', positive=True), Integer(-1)))))))), Mul(Integer(2), Pow(floor(Mul(Rational(1, 2), ceiling(Mul(Symbol('Delta', positive=True), Pow(Symbol('delta', positive=True), Integer(-1)))))), Integer(2))), Mul(Integer(2), Pow(floor(Add(Rational(1, 2), Mul(Rational(1, 2), ceiling(Mul(Symbol('Delta', positive=True), Pow(Symbol('delta', positive=True), Integer(-1))))))), Integer(2))), Mul(Integer(3), floor(Mul(Rational(1, 2), ceiling(Mul(Symbol('Delta', positive=True), Pow(Symbol('delta', positive=True), Integer(-1))))))), Mul(Integer(-2), floor(Mul(Rational(1, 2), ceiling(Mul(Symbol('Delta', positive=True), Pow(Symbol('delta', positive=True), Integer(-1)))))), floor(Add(Rational(1, 2), Mul(Rational(1, 2), ceiling(Mul(Symbol('Delta', positive=True), Pow(Symbol('delta', positive=True), Integer(-1))))))))))

def _e132():
    with evaluate(False):
        return {Symbol('a_norm', positive=True): Mul(Rational(1, 2), Pow(Symbol('Delta', positive=True), Integer(-1)), Pow(Add(Mul(Integer(-1), Symbol('gamma', nonnegative=True)), Mul(Integer(-1), Symbol('b', positive=True)), Mul(Symbol('gamma', nonnegative=True), Symbol('b', positive=True))), Integer(-1)), Add(Integer(-1), Symbol('b', positive=True)))}

def _e133():
    with evaluate(False):
        return Mul(Integer(-1), Symbol('Delta', positive=True), Pow(Symbol('b', positive=True), Rational(1, 2)), Pow(Add(Integer(-1), Symbol('b', positive=True)), Integer(-1)))

def _e134():
    with evaluate(False):
        return Mul(Rational(1, 4), Pow(Symbol('Delta', positive=True), Integer(2)), Pow(Add(Integer(-1), Symbol('b', positive=True)), Integer(-2)), Add(Mul(Integer(4), Symbol('b', positive=True)), Mul(Integer(2), Pow(Integer(2), Rational(1, 3)), Pow(Symbol('b', positive=True), Rational(2, 3)), Pow(Add(Integer(1), Symbol('b', positive=True)), Rational(2, 3)))))

def _e135():
    with evaluate(False):
        return Add(Mul(Symbol('b', positive=True), Pow(Add(Integer(-1), Symbol('b', positive=True)), Integer(-1))), Mul(Pow(Symbol('b', positive=True), Rational(1, 2)), Pow(Add(Integer(1), Mul(Integer(-1), Symbol('b', positive=True))), Integer(-1))))

def _e136():
    with evaluate(False):
        return Add(Mul(Symbol('b', positive=True), Pow(Add(Integer(-1), Symbol('b', positive=True)), Integer(-1))), Mul(Rational(1, 2), Pow(Integer(2), Rational(2, 3)), Pow(Symbol('b', positive=True), Rational(1, 3)), Pow(Add(Integer(1), Symbol('b', positive=True)), Rational(1, 3)), Pow(Add(Integer(1), Mul(Integer(-1), Symbol('b', positive=True))), Integer(-1))))

def _e137():
    with evaluate(False):
        return Mul(Integer(-1), Symbol('Delta', positive=True), Pow(Symbol('b', positive=True), Rational(1, 2)), Pow(Add(Integer(-1), Symbol('b', positive=True)), Integer(-1)))

def _e138():
    with evaluate(False):
        return Mul(Pow(Symbol('Delta', positive=True), Integer(2)), Pow(Add(Integer(-1), Symbol('b', positive=True)), Integer(-2)), Add(Symbol('b', positive=True), Mul(Rational(1, 2), Pow(Integer(2), Rational(1, 3)), Pow(Symbol('b', positive=True), Rational(2, 3)), Pow(Add(Integer(1), Symbol('b', positive=True)), Rational(2, 3)))))

def _e139():
    with evaluate(False):
        return Mul(Pow(Symbol('b', positive=True), Rational(1, 2)), Pow(Add(Integer(1), Pow(Symbol('b', positive=True), Rational(1, 2))), Integer(-1)))

def _e140():
    with evaluate(False):
        return Mul(Pow(Add(Integer(-1), Symbol('b', positive=True)), Integer(-1)), Add(Symbol('b', positive=True), Mul(Rational(-1, 2), Pow(Integer(2), Rational(2, 3)), Pow(Symbol('b', positive=True), Rational(1, 3)), Pow(Add(Integer(1), Symbol('b', positive=True)), Rational(1, 3)))))

def _e141():
    with evaluate(False):
        return Mul(Rational(1, 2), Symbol('Delta', positive=True), Pow(Add(Integer(-1), Symbol('b', positive=True)), Integer(-1)), Pow(Add(Mul(Integer(-1), Symbol('gamma', nonnegative=True)), Mul(Integer(-1), Symbol('b', positive=True)), Mul(Symbol('gamma', nonnegative=True), Symbol('b', positive=True))), Integer(-1)), Add(Symbol('b', positive=True), Pow(Symbol('gamma', nonnegative=True), Integer(2)), Pow(Symbol('b', positive=True), Integer(2)), Mul(Pow(Symbol('gamma', nonnegative=True), Integer(2)), Pow(Symbol('b', positive=True), Integer(2))), Mul(Integer(-2), Symbol('gamma', nonnegative=True), Pow(Symbol('b', positive=True), Integer(2))), Mul(Integer(-2), Symbol('b', positive=True), Pow(Symbol('gamma', nonnegative=True), Integer(2))), Mul(Integer(2), Symbol('gamma', nonnegative=True), Symbol('b', positive=True))))

def _e142():
    with evaluate(False):
        return Mul(Rational(1, 3), Pow(Symbol('Delta', positive=True), Integer(2)), Pow(Add(Integer(-1), Symbol('b', positive=True)), Integer(-2)), Pow(Add(Mul(Integer(-1), Symbol('gamma', nonnegative=True)), Mul(Integer(-1), Symbol('b', positive=True)), Mul(Symbol('gamma', nonnegative=True), Symbol('b', positive=True))), Integer(-1)), Add(Mul(Integer(-1), Symbol('b', positive=True)), Mul(Integer(-1), Pow(Symbol('gamma', nonnegative=True), Integer(3))), Mul(Integer(-1), Pow(Symbol('b', positive=True), Integer(3))), Mul(Integer(-4), Pow(Symbol('b', positive=True), Integer(2))), Mul(Pow(Symbol('gamma', nonnegative=True), Integer(3)), Pow(Symbol('b', positive=True), Integer(3))), Mul(Integer(-3), Symbol('gamma', nonnegative=True), Symbol('b', positive=True)), Mul(Integer(-3), Symbol('b', positive=True), Pow(Symbol('gamma', nonnegative=True), Integer(2))), Mul(Integer(-3), Pow(Symbol('gamma', nonnegative=True), Integer(2)), Pow(Symbol('b', positive=True), Integer(3))), Mul(Integer(-3), Pow(Symbol('gamma', nonnegative=True), Integer(3)), Pow(Symbol('b', positive=True), Integer(2))), Mul(Integer(3), Symbol('gamma', nonnegative=True), Pow(Symbol('b', positive=True), Integer(3))), Mul(Integer(3), Symbol('b', positive=True), Pow(Symbol('gamma', nonnegative=True), Integer(3))), Mul(Integer(6), Pow(Symbol('gamma', nonnegative=True), Integer(2)), Pow(Symbol('b', positive=True), Integer(2)))))

def _e143():
    with evaluate(False):
        return Mul(Integer(-1), Symbol('Delta', positive=True), Pow(Symbol('b', positive=True), Rational(1, 2)), Pow(Add(Integer(-1), Symbol('b', positive=True)), Integer(-1)))

def _e144():
    with evaluate(False):
        return Mul(Rational(1, 4), Pow(Symbol('Delta', positive=True), Integer(2)), Pow(Add(Integer(-1), Symbol('b', positive=True)), Integer(-2)), Add(Mul(Integer(4), Symbol('b', positive=True)), Mul(Integer(2), Pow(Integer(2), Rational(1, 3)), Pow(Symbol('b', positive=True), Rational(2, 3)), Pow(Add(Integer(1), Symbol('b', positive=True)), Rational(2, 3)))))

def _e145():
    with evaluate(False):
        return Add(Mul(Symbol('b', positive=True), Pow(Add(Integer(-1), Symbol('b', positive=True)), Integer(-1))), Mul(Pow(Symbol('b', positive=True), Rational(1, 2)), Pow(Add(Integer(1), Mul(Integer(-1), Symbol('b', positive=True))), Integer(-1))))

def _e146():
    with evaluate(False):
        return Add(Mul(Symbol('b', positive=True), Pow(Add(Integer(-1), Symbol('b', positive=True)), Integer(-1))), Mul(Rational(1, 2), Pow(Integer(2), Rational(2, 3)), Pow(Symbol('b', positive=True), Rational(1, 3)), Pow(Add(Integer(1), Symbol('b', positive=True)), Rational(1, 3)), Pow(Add(Integer(1), Mul(Integer(-1), Symbol('b', positive=True))), Integer(-1))))

def _e147():
    with evaluate(False):
        return Mul(Rational(1, 2), Pow(Add(Integer(-1), Symbol('b', positive=True)), Integer(-1)), Pow(Add(Mul(Integer(-1), Symbol('gamma', nonnegative=True)), Mul(Integer(-1), Symbol('b', positive=True)), Mul(Symbol('gamma', nonnegative=True), Symbol('b', positive=True))), Integer(-2)), Add(Mul(Symbol('Delta', positive=True), Symbol('b', positive=True)), Mul(Symbol('Delta', positive=True), Pow(Symbol('b', positive=True), Integer(3))), Mul(Integer(-1), Symbol('Delta', positive=True), Pow(Symbol('gamma', nonnegative=True), Integer(2))), Mul(Integer(-2), Symbol('Delta', positive=True), Pow(Symbol('b', positive=True), Integer(2))), Mul(Symbol('Delta', positive=True), Pow(Symbol('gamma', nonnegative=True), Integer(2)), Pow(Symbol('b', positive=True), Integer(3))), Mul(Integer(-3), Symbol('Delta', positive=True), Pow(Symbol('gamma', nonnegative=True), Integer(2)), Pow(Symbol('b', positive=True), Integer(2))), Mul(Integer(-2), Symbol('gamma', nonnegative=True), Symbol('Delta', positive=True), Symbol('b', positive=True)), Mul(Integer(-2), Symbol('gamma', nonnegative=True), Symbol('Delta', positive=True), Pow(Symbol('b', positive=True), Integer(3))), Mul(Integer(3), Symbol('Delta', positive=True), Symbol('b', positive=True), Pow(Symbol('gamma', nonnegative=True), Integer(2))), Mul(Integer(4), Symbol('gamma', nonnegative=True), Symbol('Delta', positive=True), Pow(Symbol('b', positive=True), Integer(2)))))

def _e148():
    with evaluate(False):
        return Mul(Rational(1, 3), Pow(Add(Integer(-1), Symbol('b', positive=True)), Integer(-2)), Pow(Add(Mul(Integer(-1), Symbol('gamma', nonnegative=True)), Mul(Integer(-1), Symbol('b', positive=True)), Mul(Symbol('gamma', nonnegative=True), Symbol('b', positive=True))), Integer(-2)), Add(Mul(Integer(-1), Symbol('b', positive=True), Pow(Symbol('Delta', positive=True), Integer(2))), Mul(Integer(-2), Pow(Symbol('Delta', positive=True), Integer(2)), Pow(Symbol('b', positive=True), Integer(4))), Mul(Integer(2), Pow(Symbol('gamma', nonnegative=True), Integer(3)), Pow(Symbol('Delta', positive=True), Integer(2))), Mul(Integer(3), Pow(Symbol('Delta', positive=True), Integer(2)), Pow(Symbol('b', positive=True), Integer(3))), Mul(Integer(-18), Pow(Symbol('gamma', nonnegative=True), Integer(2)), Pow(Symbol('Delta', positive=True), Integer(2)), Pow(Symbol('b', positive=True), Integer(2))), Mul(Integer(-12), Symbol('gamma', nonnegative=True), Pow(Symbol('Delta', positive=True), Integer(2)), Pow(Symbol('b', positive=True), Integer(3))), Mul(Integer(-8), Symbol('b', positive=True), Pow(Symbol('gamma', nonnegative=True), Integer(3)), Pow(Symbol('Delta', positive=True), Integer(2))), Mul(Integer(-8), Pow(Symbol('gamma', nonnegative=True), Integer(3)), Pow(Symbol('Delta', positive=True), Integer(2)), Pow(Symbol('b', positive=True), Integer(3))), Mul(Integer(-6), Pow(Symbol('gamma', nonnegative=True), Integer(2)), Pow(Symbol('Delta', positive=True), Integer(2)), Pow(Symbol('b', positive=True), Integer(4))), Mul(Integer(2), Pow(Symbol('gamma', nonnegative=True), Integer(3)), Pow(Symbol('Delta', positive=True), Integer(2)), Pow(Symbol('b', positive=True), Integer(4))), Mul(Integer(6), Symbol('gamma', nonnegative=True), Pow(Symbol('Delta', positive=True), Integer(2)), Pow(Symbol('b', positive=True), Integer(2))), Mul(Integer(6), Symbol('gamma', nonnegative=True), Pow(Symbol('Delta', positive=True), Integer(2)), Pow(Symbol('b', positive=True), Integer(4))), Mul(Integer(6), Symbol('b', positive=True), Pow(Symbol('gamma', nonnegative=True), Integer(2)), Pow(Symbol('Delta', positive=True), Integer(2))), Mul(Integer(12), Pow(Symbol('gamma', nonnegative=True), Integer(3)), Pow(Symbol('Delta', positive=True), Integer(2)), Pow(Symbol('b', positive=True), Integer(2))), Mul(Integer(18), Pow(Symbol('gamma', nonnegative=True), Integer(2)), Pow(Symbol('Delta', positive=True), Integer(2)), Pow(Symbol('b', positive=True), Integer(3)))))

def _e149():
    with evaluate(False):
        return {Symbol('a_norm', positive=True): Mul(Rational(1, 2), Pow(Symbol('Delta', positive=True), Integer(-2)), Pow(Add(Integer(-1), Symbol('b', positive=True)), Integer(2)), Pow(Add(Symbol('b', positive=True), Pow(Symbol('gamma', nonnegative=True), Integer(2)), Pow(Symbol('b', positive=True), Integer(2)), Mul(Pow(Symbol('gamma', nonnegative=True), Integer(2)), Pow(Symbol('b', positive=True), Integer(2))), Mul(Integer(-2), Symbol('gamma', nonnegative=True), Pow(Symbol('b', positive=True), Integer(2))), Mul(Integer(-2), Symbol('b', positive=True), Pow(Symbol('gamma', nonnegative=True), Integer(2))), Mul(Integer(2), Symbol('gamma', nonnegative=True), Symbol('b', positive=True))), Integer(-1)))}

def _e150():
    with evaluate(False):
        return Mul(Rational(2, 3), Symbol('Delta', positive=True), Pow(Add(Mul(Pow(Add(Integer(1), Mul(Integer(-1), Symbol('b', positive=True))), Integer(-3)), Pow(Add(Mul(Rational(1, 2), Pow(Add(Mul(Integer(-1), Pow(Integer(2), Rational(1, 3)), Pow(Symbol('b', positive=True), Rational(2, 3)), Add(Pow(Add(Pow(Add(Integer(1), Symbol('b', positive=True)), Integer(2)), Mul(Pow(Add(Integer(1), Pow(Symbol('b', positive=True), Integer(2)), Mul(Integer(6), Symbol('b', positive=True))), Rational(1, 2)), Add(Integer(1), Mul(Integer(-1), Symbol('b', positive=True))))), Rational(1, 3)), Pow(Add(Pow(Add(Integer(1), Symbol('b', positive=True)), Integer(2)), Mul(Integer(-1), Pow(Add(Integer(1), Pow(Symbol('b', positive=True), Integer(2)), Mul(Integer(6), Symbol('b', positive=True))), Rational(1, 2)), Add(Integer(1), Mul(Integer(-1), Symbol('b', positive=True))))), Rational(1, 3)))), Mul(Integer(2), Pow(Integer(2), Rational(5, 6)), Pow(Symbol('b', positive=True), Rational(2, 3)), Pow(Add(Pow(Add(Pow(Add(Integer(1), Symbol('b', positive=True)), Integer(2)), Mul(Pow(Add(Integer(1), Pow(Symbol('b', positive=True), Integer(2)), Mul(Integer(6), Symbol('b', positive=True))), Rational(1, 2)), Add(Integer(1), Mul(Integer(-1), Symbol('b', positive=True))))), Rational(1, 3)), Pow(Add(Pow(Add(Integer(1), Symbol('b', positive=True)), Integer(2)), Mul(Integer(-1), Pow(Add(Integer(1), Pow(Symbol('b', positive=True), Integer(2)), Mul(Integer(6), Symbol('b', positive=True))), Rational(1, 2)), Add(Integer(1), Mul(Integer(-1), Symbol('b', positive=True))))), Rational(1, 3))), Rational(-1, 2)), Add(Integer(1), Symbol('b', positive=True)))), Rational(1, 2))), Mul(Integer(-1), Symbol('b', positive=True)), Mul(Rational(1, 2), Pow(Integer(2), Rational(1, 6)), Pow(Symbol('b', positive=True), Rational(1, 3)), Pow(Add(Pow(Add(Pow(Add(Integer(1), Symbol('b', positive=True)), Integer(2)), Mul(Pow(Add(Integer(1), Pow(Symbol('b', positive=True), Integer(2)), Mul(Integer(6), Symbol('b', positive=True))), Rational(1, 2)), Add(Integer(1), Mul(Integer(-1), Symbol('b', positive=True))))), Rational(1, 3)), Pow(Add(Pow(Add(Integer(1), Symbol('b', positive=True)), Integer(2)), Mul(Integer(-1), Pow(Add(Integer(1), Pow(Symbol('b', positive=True), Integer(2)), Mul(Integer(6), Symbol('b', positive=True))), Rational(1, 2)), Add(Integer(1), Mul(Integer(-1), Symbol('b', positive=True))))), Rational(1, 3))), Rational(1, 2)))), Integer(2))), Mul(Symbol('b', positive=True), Pow(Add(Integer(1), Mul(Integer(-1), Symbol('b', positive=True))), Integer(-3)), Add(Integer(1), Symbol('b', positive=True))), Mul(Integer(2), Symbol('b', positive=True), Pow(Add(Integer(1), Mul(Integer(-1), Symbol('b', positive=True))), Integer(-3)), Add(Mul(Rational(1, 2), Pow(Add(Mul(Integer(-1), Pow(Integer(2), Rational(1, 3)), Pow(Symbol('b', positive=True), Rational(2, 3)), Add(Pow(Add(Pow(Add(Integer(1), Symbol('b', positive=True)), Integer(2)), Mul(Pow(Add(Integer(1), Pow(Symbol('b', positive=True), Integer(2)), Mul(Integer(6), Symbol('b', positive=True))), Rational(1, 2)), Add(Integer(1), Mul(Integer(-1), Symbol('b', positive=True))))), Rational(1, 3)), Pow(Add(Pow(Add(Integer(1), Symbol('b', positive=True)), Integer(2)), Mul(Integer(-1), Pow(Add(Integer(1), Pow(Symbol('b', positive=True), Integer(2)), Mul(Integer(6), Symbol('b', positive=True))), Rational(1, 2)), Add(Integer(1), Mul(Integer(-1), Symbol('b', positive=True))))), Rational(1, 3)))), Mul(Integer(2), Pow(Integer(2), Rational(5, 6)), Pow(Symbol('b', positive=True), Rational(2, 3)), Pow(Add(Pow(Add(Pow(Add(Integer(1), Symbol('b', positive=True)), Integer(2)), Mul(Pow(Add(Integer(1), Pow(Symbol('b', positive=True), Integer(2)), Mul(Integer(6), Symbol('b', positive=True))), Rational(1, 2)), Add(Integer(1), Mul(Integer(-1), Symbol('b', positive=True))))), Rational(1, 3)), Pow(Add(Pow(Add(Integer(1), Symbol('b', positive=True)), Integer(2)), Mul(Integer(-1), Pow(Add(Integer(1), Pow(Symbol('b', positive=True), Integer(2)), Mul(Integer(6), Symbol('b', positive=True))), Rational(1, 2)), Add(Integer(1), Mul(Integer(-1), Symbol('b', positive=True))))), Rational(1, 3))), Rational(-1, 2)), Add(Integer(1), Symbol('b', positive=True)))), Rational(1, 2))), Mul(Integer(-1), Symbol('b', positive=True)), Mul(Rational(1, 2), Pow(Integer(2), Rational(1, 6)), Pow(Symbol('b', positive=True), Rational(1, 3)), Pow(Add(Pow(Add(Pow(Add(Integer(1), Symbol('b', positive=True)), Integer(2)), Mul(Pow(Add(Integer(1), Pow(Symbol('b', positive=True), Integer(2)), Mul(Integer(6), Symbol('b', positive=True))), Rational(1, 2)), Add(Integer(1), Mul(Integer(-1), Symbol('b', positive=True))))), Rational(1, 3)), Pow(Add(Pow(Add(Integer(1), Symbol('b', positive=True)), Integer(2)), Mul(Integer(-1), Pow(Add(Integer(1), Pow(Symbol('b', positive=True), Integer(2)), Mul(Integer(6), Symbol('b', positive=True))), Rational(1, 2)), Add(Integer(1), Mul(Integer(-1), Symbol('b', positive=True))))), Rational(1, 3))), Rational(1, 2)))))), Integer(-1)), Add(Mul(Pow(Add(Integer(1), Mul(Integer(-1), Symbol('b', positive=True))), Integer(-4)), Pow(Add(Mul(Rational(1, 2), Pow(Add(Mul(Integer(-1), Pow(Integer(2), Rational(1, 3)), Pow(Symbol('b', positive=True), Rational(2, 3)), Add(Pow(Add(Pow(Add(Integer(1), Symbol('b', positive=True)), Integer(2)), Mul(Pow(Add(Integer(1), Pow(Symbol('b', positive=True), Integer(2)), Mul(Integer(6), Symbol('b', positive=True))), Rational(1, 2)), Add(Integer(1), Mul(Integer(-1), Symbol('b', positive=True))))), Rational(1, 3)), Pow(Add(Pow(Add(Integer(1), Symbol('b', positive=True)), Integer(2)), Mul(Integer(-1), Pow(Add(Integer(1), Pow(Symbol('b', positive=True), Integer(2)), Mul(Integer(6), Symbol('b', positive=True))), Rational(1, 2)), Add(Integer(1), Mul(Integer(-1), Symbol('b', positive=True))))), Rational(1, 3)))), Mul(Integer(2), Pow(Integer(2), Rational(5, 6)), Pow(Symbol('b', positive=True), Rational(2, 3)), Pow(Add(Pow(Add(Pow(Add(Integer(1), Symbol('b', positive=True)), Integer(2)), Mul(Pow(Add(Integer(1), Pow(Symbol('b', positive=True), Integer(2)), Mul(Integer(6), Symbol('b', positive=True))), Rational(1, 2)), Add(Integer(1), Mul(Integer(-1), Symbol('b', positive=True))))), Rational(1, 3)), Pow(Add(Pow(Add(Integer(1), Symbol('b', positive=True)), Integer(2)), Mul(Integer(-1), Pow(Add(Integer(1), Pow(Symbol('b', positive=True), Integer(2)), Mul(Integer(6), Symbol('b', positive=True))), Rational(1, 2)), Add(Integer(1), Mul(Integer(-1), Symbol('b', positive=True))))), Rational(1, 3))), Rational(-1, 2)), Add(Integer(1), Symbol('b', positive=True)))), Rational(1, 2))), Mul(Integer(-1), Symbol('b', positive=True)), Mul(Rational(1, 2), Pow(Integer(2), Rational(1, 6)), Pow(Symbol('b', positive=True), Rational(1, 3)), Pow(Add(Pow(Add(Pow(Add(Integer(1), Symbol('b', positive=True)), Integer(2)), Mul(Pow(Add(Integer(1), Pow(Symbol('b', positive=True), Integer(2)), Mul(Integer(6), Symbol('b', positive=True))), Rational(1, 2)), Add(Integer(1), Mul(Integer(-1), Symbol('b', positive=True))))), Rational(1, 3)), Pow(Add(Pow(Add(Integer(1), Symbol('b', positive=True)), Integer(2)), Mul(Integer(-1), Pow(Add(Integer(1), Pow(Symbol('b', positive=True), Integer(2)), Mul(Integer(6), Symbol('b', positive=True))), Rational(1, 2)), Add(Integer(1), Mul(Integer(-1), Symbol('b', positive=True))))), Rational(1, 3))), Rational(1, 2)))), Integer(3))), Mul(Symbol('b', positive=True), Pow(Add(Integer(1), Mul(Integer(-1), Symbol('b', positive=True))), Integer(-4)), Add(Integer(1), Pow(Symbol('b', positive=True), Integer(2)), Mul(Integer(4), Symbol('b', positive=True)))), Mul(Integer(3), Symbol('b', positive=True), Pow(Add(Integer(1), Mul(Integer(-1), Symbol('b', positive=True))), Integer(-4)), Pow(Add(Mul(Rational(1, 2), Pow(Add(Mul(Integer(-1), Pow(Integer(2), Rational(1, 3)), Pow(Symbol('b', positive=True), Rational(2, 3)), Add(Pow(Add(Pow(Add(Integer(1), Symbol('b', positive=True)), Integer(2)), Mul(Pow(Add(Integer(1), Pow(Symbol('b', positive=True), Integer(2)), Mul(Integer(6), Symbol('b', positive=True))), Rational(1, 2)), Add(Integer(1), Mul(Integer(-1), Symbol('b', positive=True))))), Rational(1, 3)), Pow(Add(Pow(Add(Integer(1), Symbol('b', positive=True)), Integer(2)), Mul(Integer(-1), Pow(Add(Integer(1), Pow(Symbol('b', positive=True), Integer(2)), Mul(Integer(6), Symbol('b', positive=True))), Rational(1, 2)), Add(Integer(1), Mul(Integer(-1), Symbol('b', positive=True))))), Rational(1, 3)))), Mul(Integer(2), Pow(Integer(2), Rational(5, 6)), Pow(Symbol('b', positive=True), Rational(2, 3)), Pow(Add(Pow(Add(Pow(Add(Integer(1), Symbol('b', positive=True)), Integer(2)), Mul(Pow(Add(Integer(1), Pow(Symbol('b', positive=True), Integer(2)), Mul(Integer(6), Symbol('b', positive=True))), Rational(1, 2)), Add(Integer(1), Mul(Integer(-1), Symbol('b', positive=True))))), Rational(1, 3)), Pow(Add(Pow(Add(Integer(1), Symbol('b', positive=True)), Integer(2)), Mul(Integer(-1), Pow(Add(Integer(1), Pow(Symbol('b', positive=True), Integer(2)), Mul(Integer(6), Symbol('b', positive=True))), Rational(1, 2)), Add(Integer(1), Mul(Integer(-1), Symbol('b', positive=True))))), Rational(1, 3))), Rational(-1, 2)), Add(Integer(1), Symbol('b', positive=True)))), Rational(1, 2))), Mul(Integer(-1), Symbol('b', positive=True)), Mul(Rational(1, 2), Pow(Integer(2), Rational(1, 6)), Pow(Symbol('b', positive=True), Rational(1, 3)), Pow(Add(Pow(Add(Pow(Add(Integer(1), Symbol('b', positive=True)), Integer(2)), Mul(Pow(Add(Integer(1), Pow(Symbol('b', positive=True), Integer(2)), Mul(Integer(6), Symbol('b', positive=True))), Rational(1, 2)), Add(Integer(1), Mul(Integer(-1), Symbol('b', positive=True))))), Rational(1, 3)), Pow(Add(Pow(Add(Integer(1), Symbol('b', positive=True)), Integer(2)), Mul(Integer(-1), Pow(Add(Integer(1), Pow(Symbol('b', positive=True), Integer(2)), Mul(Integer(6), Symbol('b', positive=True))), Rational(1, 2)), Add(Integer(1), Mul(Integer(-1), Symbol('b', positive=True))))), Rational(1, 3))), Rational(1, 2)))), Integer(2))), Mul(Integer(3), Symbol('b', positive=True), Pow(Add(Integer(1), Mul(Integer(-1), Symbol('b', positive=True))), Integer(-4)), Add(Integer(1), Symbol('b', positive=True)), Add(Mul(Rational(1, 2), Pow(Add(Mul(Integer(-1), Pow(Integer(2), Rational(1, 3)), Pow(Symbol('b', positive=True), Rational(2, 3)), Add(Pow(Add(Pow(Add(Integer(1), Symbol('b', positive=True)), Integer(2)), Mul(Pow(Add(Integer(1), Pow(Symbol('b', positive=True), Integer(2)), Mul(Integer(6), Symbol('b', positive=True))), Rational(1, 2)), Add(Integer(1), Mul(Integer(-1), Symbol('b', positive=True))))), Rational(1, 3)), Pow(Add(Pow(Add(Integer(1), Symbol('b', positive=True)), Integer(2)), Mul(Integer(-1), Pow(Add(Integer(1), Pow(Symbol('b', positive=True), Integer(2)), Mul(Integer(6), Symbol('b', positive=True))), Rational(1, 2)), Add(Integer(1), Mul(Integer(-1), Symbol('b', positive=True))))), Rational(1, 3)))), Mul(Integer(2), Pow(Integer(2), Rational(5, 6)), Pow(Symbol('b', positive=True), Rational(2, 3)), Pow(Add(Pow(Add(Pow(Add(Integer(1), Symbol('b', positive=True)), Integer(2)), Mul(Pow(Add(Integer(1), Pow(Symbol('b', positive=True), Integer(2)), Mul(Integer(6), Symbol('b', positive=True))), Rational(1, 2)), Add(Integer(1), Mul(Integer(-1), Symbol('b', positive=True))))), Rational(1, 3)), Pow(Add(Pow(Add(Integer(1), Symbol('b', positive=True)), Integer(2)), Mul(Integer(-1), Pow(Add(Integer(1), Pow(Symbol('b', positive=True), Integer(2)), Mul(Integer(6), Symbol('b', positive=True))), Rational(1, 2)), Add(Integer(1), Mul(Integer(-1), Symbol('b', positive=True))))), Rational(1, 3))), Rational(-1, 2)), Add(Integer(1), Symbol('b', positive=True)))), Rational(1, 2))), Mul(Integer(-1), Symbol('b', positive=True)), Mul(Rational(1, 2), Pow(Integer(2), Rational(1, 6)), Pow(Symbol('b', positive=True), Rational(1, 3)), Pow(Add(Pow(Add(Pow(Add(Integer(1), Symbol('b', positive=True)), Integer(2)), Mul(Pow(Add(Integer(1), Pow(Symbol('b', positive=True), Integer(2)), Mul(Integer(6), Symbol('b', positive=True))), Rational(1, 2)), Add(Integer(1), Mul(Integer(-1), Symbol('b', positive=True))))), Rational(1, 3)), Pow(Add(Pow(Add(Integer(1), Symbol('b', positive=True)), Integer(2)), Mul(Integer(-1), Pow(Add(Integer(1), Pow(Symbol('b', positive=True), Integer(2)), Mul(Integer(6), Symbol('b', positive=True))), Rational(1, 2)), Add(Integer(1), Mul(Integer(-1), Symbol('b', positive=True))))), Rational(1, 3))), Rational(1, 2)))))))

def _e151():
    with evaluate(False):
        return None

def _e152():
    with evaluate(False):
        return Mul(Pow(Add(Integer(1), Mul(Integer(-1), Symbol('b', positive=True))), Integer(-1)), Add(Mul(Rational(1, 2), Pow(Add(Mul(Integer(-1), Pow(Integer(2), Rational(1, 3)), Pow(Symbol('b', positive=True), Rational(2, 3)), Add(Pow(Add(Pow(Add(Integer(1), Symbol('b', positive=True)), Integer(2)), Mul(Pow(Add(Integer(1), Pow(Symbol('b', positive=True), Integer(2)), Mul(Integer(6), Symbol('b', positive=True))), Rational(1, 2)), Add(Integer(1), Mul(Integer(-1), Symbol('b', positive=True))))), Rational(1, 3)), Pow(Add(Pow(Add(Integer(1), Symbol('b', positive=True)), Integer(2)), Mul(Integer(-1), Pow(Add(Integer(1), Pow(Symbol('b', positive=True), Integer(2)), Mul(Integer(6), Symbol('b', positive=True))), Rational(1, 2)), Add(Integer(1), Mul(Integer(-1), Symbol('b', positive=True))))), Rational(1, 3)))), Mul(Integer(2), Pow(Integer(2), Rational(5, 6)), Pow(Symbol('b', positive=True), Rational(2, 3)), Pow(Add(Pow(Add(Pow(Add(Integer(1), Symbol('b', positive=True)), Integer(2)), Mul(Pow(Add(Integer(1), Pow(Symbol('b', positive=True), Integer(2)), Mul(Integer(6), Symbol('b', positive=True))), Rational(1, 2)), Add(Integer(1), Mul(Integer(-1), Symbol('b', positive=True))))), Rational(1, 3)), Pow(Add(Pow(Add(Integer(1), Symbol('b', positive=True)), Integer(2)), Mul(Integer(-1), Pow(Add(Integer(1), Pow(Symbol('b', positive=True), Integer(2)), Mul(Integer(6), Symbol('b', positive=True))), Rational(1, 2)), Add(Integer(1), Mul(Integer(-1), Symbol('b', positive=True))))), Rational(1, 3))), Rational(-1, 2)), Add(Integer(1), Symbol('b', positive=True)))), Rational(1, 2))), Mul(Integer(-1), Symbol('b', positive=True)), Mul(Rational(1, 2), Pow(Integer(2), Rational(1, 6)), Pow(Symbol('b', positive=True), Rational(1, 3)), Pow(Add(Pow(Add(Pow(Add(Integer(1), Symbol('b', positive=True)), Integer(2)), Mul(Pow(Add(Integer(1), Pow(Symbol('b', positive=True), Integer(2)), Mul(Integer(6), Symbol('b', positive=True))), Rational(1, 2)), Add(Integer(1), Mul(Integer(-1), Symbol('b', positive=True))))), Rational(1, 3)), Pow(Add(Pow(Add(Integer(1), Symbol('b', positive=True)), Integer(2)), Mul(Integer(-1), Pow(Add(Integer(1), Pow(Symbol('b', positive=True), Integer(2)), Mul(Integer(6), Symbol('b', positive=True))), Rational(1, 2)), Add(Integer(1), Mul(Integer(-1), Symbol('b', positive=True))))), Rational(1, 3))), Rational(1, 2)))))

def _e153():
    with evaluate(False):
        return None

def _e154():
    with evaluate(False):
        return Mul(Rational(2, 3), Symbol('Delta', positive=True), Pow(Add(Mul(Pow(Add(Integer(1), Mul(Integer(-1), Symbol('b', positive=True))), Integer(-3)), Pow(Add(Mul(Rational(1, 2), Pow(Add(Mul(Integer(-1), Pow(Integer(2), Rational(1, 3)), Pow(Symbol('b', positive=True), Rational(2, 3)), Add(Pow(Add(Pow(Add(Integer(1), Symbol('b', positive=True)), Integer(2)), Mul(Pow(Add(Integer(1), Pow(Symbol('b', positive=True), Integer(2)), Mul(Integer(6), Symbol('b', positive=True))), Rational(1, 2)), Add(Integer(1), Mul(Integer(-1), Symbol('b', positive=True))))), Rational(1, 3)), Pow(Add(Pow(Add(Integer(1), Symbol('b', positive=True)), Integer(2)), Mul(Integer(-1), Pow(Add(Integer(1), Pow(Symbol('b', positive=True), Integer(2)), Mul(Integer(6), Symbol('b', positive=True))), Rational(1, 2)), Add(Integer(1), Mul(Integer(-1), Symbol('b', positive=True))))), Rational(1, 3)))), Mul(Integer(2), Pow(Integer(2), Rational(5, 6)), Pow(Symbol('b', positive=True), Rational(2, 3)), Pow(Add(Pow(Add(Pow(Add(Integer(1), Symbol('b', positive=True)), Integer(2)), Mul(Pow(Add(Integer(1), Pow(Symbol('b', positive=True), Integer(2)), Mul(Integer(6), Symbol('b', positive=True))), Rational(1, 2)), Add(Integer(1), Mul(Integer(-1), Symbol('b', positive=True))))), Rational(1, 3)), Pow(Add(Pow(Add(Integer(1), Symbol('b', positive=True)), Integer(2)), Mul(Integer(-1), Pow(Add(Integer(1), Pow(Symbol('b', positive=True), Integer(2)), Mul(Integer(6), Symbol('b', positive=True))), Rational(1, 2)), Add(Integer(1), Mul(Integer(-1), Symbol('b', positive=True))))), Rational(1, 3))), Rational(-1, 2)), Add(Integer(1), Symbol('b', positive=True)))), Rational(1, 2))), Mul(Integer(-1), Symbol('b', positive=True)), Mul(Rational(1, 2), Pow(Integer(2), Rational(1, 6)), Pow(Symbol('b', positive=True), Rational(1, 3)), Pow(Add(Pow(Add(Pow(Add(Integer(1), Symbol('b', positive=True)), Integer(2)), Mul(Pow(Add(Integer(1), Pow(Symbol('b', positive=True), Integer(2)), Mul(Integer(6), Symbol('b', positive=True))), Rational(1, 2)), Add(Integer(1), Mul(Integer(-1), Symbol('b', positive=True))))), Rational(1, 3)), Pow(Add(Pow(Add(Integer(1), Symbol('b', positive=True)), Integer(2)), Mul(Integer(-1), Pow(Add(Integer(1), Pow(Symbol('b', positive=True), Integer(2)), Mul(Integer(6), Symbol('b', positive=True))), Rational(1, 2)), Add(Integer(1), Mul(Integer(-1), Symbol('b', positive=True))))), Rational(1, 3))), Rational(1, 2)))), Integer(2))), Mul(Symbol('b', positive=True), Pow(Add(Integer(1), Mul(Integer(-1), Symbol('b', positive=True))), Integer(-3)), Add(Integer(1), Symbol('b', positive=True))), Mul(Integer(2), Symbol('b', positive=True), Pow(Add(Integer(1), Mul(Integer(-1), Symbol('b', positive=True))), Integer(-3)), Add(Mul(Rational(1, 2), Pow(Add(Mul(Integer(-1), Pow(Integer(2), Rational(1, 3)), Pow(Symbol('b', positive=True), Rational(2, 3)), Add(Pow(Add(Pow(Add(Integer(1), Symbol('b', positive=True)), Integer(2)), Mul(Pow(Add(Integer(1), Pow(Symbol('b', positive=True), Integer(2)), Mul(Integer(6), Symbol('b', positive=True))), Rational(1, 2)), Add(Integer(1), Mul(Integer(-1), Symbol('b', positive=True))))), Rational(1, 3)), Pow(Add(Pow(Add(Integer(1), Symbol('b', positive=True)), Integer(2)), Mul(Integer(-1), Pow(Add(Integer(1), Pow(Symbol('b', positive=True), Integer(2)), Mul(Integer(6), Symbol('b', positive=True))), Rational(1, 2)), Add(Integer(1), Mul(Integer(-1), Symbol('b', positive=True))))), Rational(1, 3)))), Mul(Integer(2), Pow(Integer(2), Rational(5, 6)), Pow(Symbol('b', positive=True), Rational(2, 3)), Pow(Add(Pow(Add(Pow(Add(Integer(1), Symbol('b', positive=True)), Integer(2)), Mul(Pow(Add(Integer(1), Pow(Symbol('b', positive=True), Integer(2)), Mul(Integer(6), Symbol('b', positive=True))), Rational(1, 2)), Add(Integer(1), Mul(Integer(-1), Symbol('b', positive=True))))), Rational(1, 3)), Pow(Add(Pow(Add(Integer(1), Symbol('b', positive=True)), Integer(2)), Mul(Integer(-1), Pow(Add(Integer(1), Pow(Symbol('b', positive=True), Integer(2)), Mul(Integer(6), Symbol('b', positive=True))), Rational(1, 2)), Add(Integer(1), Mul(Integer(-1), Symbol('b', positive=True))))), Rational(1, 3))), Rational(-1, 2)), Add(Integer(1), Symbol('b', positive=True)))), Rational(1, 2))), Mul(Integer(-1), Symbol('b', positive=True)), Mul(Rational(1, 2), Pow(Integer(2), Rational(1, 6)), Pow(Symbol('b', positive=True), Rational(1, 3)), Pow(Add(Pow(Add(Pow(Add(Integer(1), Symbol('b', positive=True)), Integer(2)), Mul(Pow(Add(Integer(1), Pow(Symbol('b', positive=True), Integer(2)), Mul(Integer(6), Symbol('b', positive=True))), Rational(1, 2)), Add(Integer(1), Mul(Integer(-1), Symbol('b', positive=True))))), Rational(1, 3)), Pow(Add(Pow(Add(Integer(1), Symbol('b', positive=True)), Integer(2)), Mul(Integer(-1), Pow(Add(Integer(1), Pow(Symbol('b', positive=True), Integer(2)), Mul(Integer(6), Symbol('b', positive=True))), Rational(1, 2)), Add(Integer(1), Mul(Integer(-1), Symbol('b', positive=True))))), Rational(1, 3))), Rational(1, 2)))))), Integer(-1)), Add(Mul(Pow(Add(Integer(1), Mul(Integer(-1), Symbol('b', positive=True))), Integer(-4)), Pow(Add(Mul(Rational(1, 2), Pow(Add(Mul(Integer(-1), Pow(Integer(2), Rational(1, 3)), Pow(Symbol('b', positive=True), Rational(2, 3)), Add(Pow(Add(Pow(Add(Integer(1), Symbol('b', positive=True)), Integer(2)), Mul(Pow(Add(Integer(1), Pow(Symbol('b', positive=True), Integer(2)), Mul(Integer(6), Symbol('b', positive=True))), Rational(1, 2)), Add(Integer(1), Mul(Integer(-1), Symbol('b', positive=True))))), Rational(1, 3)), Pow(Add(Pow(Add(Integer(1), Symbol('b', positive=True)), Integer(2)), Mul(Integer(-1), Pow(Add(Integer(1), Pow(Symbol('b', positive=True), Integer(2)), Mul(Integer(6), Symbol('b', positive=True))), Rational(1, 2)), Add(Integer(1), Mul(Integer(-1), Symbol('b', positive=True))))), Rational(1, 3)))), Mul(Integer(2), Pow(Integer(2), Rational(5, 6)), Pow(Symbol('b', positive=True), Rational(2, 3)), Pow(Add(Pow(Add(Pow(Add(Integer(1), Symbol('b', positive=True)), Integer(2)), Mul(Pow(Add(Integer(1), Pow(Symbol('b', positive=True), Integer(2)), Mul(Integer(6), Symbol('b', positive=True))), Rational(1, 2)), Add(Integer(1), Mul(Integer(-1), Symbol('b', positive=True))))), Rational(1, 3)), Pow(Add(Pow(Add(Integer(1), Symbol('b', positive=True)), Integer(2)), Mul(Integer(-1), Pow(Add(Integer(1), Pow(Symbol('b', positive=True), Integer(2)), Mul(Integer(6), Symbol('b', positive=True))), Rational(1, 2)), Add(Integer(1), Mul(Integer(-1), Symbol('b', positive=True))))), Rational(1, 3))), Rational(-1, 2)), Add(Integer(1), Symbol('b', positive=True)))), Rational(1, 2))), Mul(Integer(-1), Symbol('b', positive=True)), Mul(Rational(1, 2), Pow(Integer(2), Rational(1, 6)), Pow(Symbol('b', positive=True), Rational(1, 3)), Pow(Add(Pow(Add(Pow(Add(Integer(1), Symbol('b', positive=True)), Integer(2)), Mul(Pow(Add(Integer(1), Pow(Symbol('b', positive=True), Integer(2)), Mul(Integer(6), Symbol('b', positive=True))), Rational(1, 2)), Add(Integer(1), Mul(Integer(-1), Symbol('b', positive=True))))), Rational(1, 3)), Pow(Add(Pow(Add(Integer(1), Symbol('b', positive=True)), Integer(2)), Mul(Integer(-1), Pow(Add(Integer(1), Pow(Symbol('b', positive=True), Integer(2)), Mul(Integer(6), Symbol('b', positive=True))), Rational(1, 2)), Add(Integer(1), Mul(Integer(-1), Symbol('b', positive=True))))), Rational(1, 3))), Rational(1, 2)))), Integer(3))), Mul(Symbol('b', positive=True), Pow(Add(Integer(1), Mul(Integer(-1), Symbol('b', positive=True))), Integer(-4)), Add(Integer(1), Pow(Symbol('b', positive=True), Integer(2)), Mul(Integer(4), Symbol('b', positive=True)))), Mul(Integer(3), Symbol('b', positive=True), Pow(Add(Integer(1), Mul(Integer(-1), Symbol('b', positive=True))), Integer(-4)), Pow(Add(Mul(Rational(1, 2), Pow(Add(Mul(Integer(-1), Pow(Integer(2), Rational(1, 3)), Pow(Symbol('b', positive=True), Rational(2, 3)), Add(Pow(Add(Pow(Add(Integer(1), Symbol('b', positive=True)), Integer(2)), Mul(Pow(Add(Integer(1), Pow(Symbol('b', positive=True), Integer(2)), Mul(Integer(6), Symbol('b', positive=True))), Rational(1, 2)), Add(Integer(1), Mul(Integer(-1), Symbol('b', positive=True))))), Rational(1, 3)), Pow(Add(Pow(Add(Integer(1), Symbol('b', positive=True)), Integer(2)), Mul(Integer(-1), Pow(Add(Integer(1), Pow(Symbol('b', positive=True), Integer(2)), Mul(Integer(6), Symbol('b', positive=True))), Rational(1, 2)), Add(Integer(1), Mul(Integer(-1), Symbol('b', positive=True))))), Rational(1, 3)))), Mul(Integer(2), Pow(Integer(2), Rational(5, 6)), Pow(Symbol('b', positive=True), Rational(2, 3)), Pow(Add(Pow(Add(Pow(Add(Integer(1), Symbol('b', positive=True)), Integer(2)), Mul(Pow(Add(Integer(1), Pow(Symbol('b', positive=True), Integer(2)), Mul(Integer(6), Symbol('b', positive=True))), Rational(1, 2)), Add(Integer(1), Mul(Integer(-1), Symbol('b', positive=True))))), Rational(1, 3)), Pow(Add(Pow(Add(Integer(1), Symbol('b', positive=True)), Integer(2)), Mul(Integer(-1), Pow(Add(Integer(1), Pow(Symbol('b', positive=True), Integer(2)), Mul(Integer(6), Symbol('b', positive=True))), Rational(1, 2)), Add(Integer(1), Mul(Integer(-1), Symbol('b', positive=True))))), Rational(1, 3))), Rational(-1, 2)), Add(Integer(1), Symbol('b', positive=True)))), Rational(1, 2))), Mul(Integer(-1), Symbol('b', positive=True)), Mul(Rational(1, 2), Pow(Integer(2), Rational(1, 6)), Pow(Symbol('b', positive=True), Rational(1, 3)), Pow(Add(Pow(Add(Pow(Add(Integer(1), Symbol('b', positive=True)), Integer(2)), Mul(Pow(Add(Integer(1), Pow(Symbol('b', positive=True), Integer(2)), Mul(Integer(6), Symbol('b', positive=True))), Rational(1, 2)), Add(Integer(1), Mul(Integer(-1), Symbol('b', positive=True))))), Rational(1, 3)), Pow(Add(Pow(Add(Integer(1), Symbol('b', positive=True)), Integer(2)), Mul(Integer(-1), Pow(Add(Integer(1), Pow(Symbol('b', positive=True), Integer(2)), Mul(Integer(6), Symbol('b', positive=True))), Rational(1, 2)), Add(Integer(1), Mul(Integer(-1), Symbol('b', positive=True))))), Rational(1, 3))), Rational(1, 2)))), Integer(2))), Mul(Integer(3), Symbol('b', positive=True), Pow(Add(Integer(1), Mul(Integer(-1), Symbol('b', positive=True))), Integer(-4)), Add(Integer(1), Symbol('b', positive=True)), Add(Mul(Rational(1, 2), Pow(Add(Mul(Integer(-1), Pow(Integer(2), Rational(1, 3)), Pow(Symbol('b', positive=True), Rational(2, 3)), Add(Pow(Add(Pow(Add(Integer(1), Symbol('b', positive=True)), Integer(2)), Mul(Pow(Add(Integer(1), Pow(Symbol('b', positive=True), Integer(2)), Mul(Integer(6), Symbol('b', positive=True))), Rational(1, 2)), Add(Integer(1), Mul(Integer(-1), Symbol('b', positive=True))))), Rational(1, 3)), Pow(Add(Pow(Add(Integer(1), Symbol('b', positive=True)), Integer(2)), Mul(Integer(-1), Pow(Add(Integer(1), Pow(Symbol('b', positive=True), Integer(2)), Mul(Integer(6), Symbol('b', positive=True))), Rational(1, 2)), Add(Integer(1), Mul(Integer(-1), Symbol('b', positive=True))))), Rational(1, 3)))), Mul(Integer(2), Pow(Integer(2), Rational(5, 6)), Pow(Symbol('b', positive=True), Rational(2, 3)), Pow(Add(Pow(Add(Pow(Add(Integer(1), Symbol('b', positive=True)), Integer(2)), Mul(Pow(Add(Integer(1), Pow(Symbol('b', positive=True), Integer(2)), Mul(Integer(6), Symbol('b', positive=True))), Rational(1, 2)), Add(Integer(1), Mul(Integer(-1), Symbol('b', positive=True))))), Rational(1, 3)), Pow(Add(Pow(Add(Integer(1), Symbol('b', positive=True)), Integer(2)), Mul(Integer(-1), Pow(Add(Integer(1), Pow(Symbol('b', positive=True), Integer(2)), Mul(Integer(6), Symbol('b', positive=True))), Rational(1, 2)), Add(Integer(1), Mul(Integer(-1), Symbol('b', positive=True))))), Rational(1, 3))), Rational(-1, 2)), Add(Integer(1), Symbol('b', positive=True)))), Rational(1, 2))), Mul(Integer(-1), Symbol('b', positive=True)), Mul(Rational(1, 2), Pow(Integer(2), Rational(1, 6)), Pow(Symbol('b', positive=True), Rational(1, 3)), Pow(Add(Pow(Add(Pow(Add(Integer(1), Symbol('b', positive=True)), Integer(2)), Mul(Pow(Add(Integer(1), Pow(Symbol('b', positive=True), Integer(2)), Mul(Integer(6), Symbol('b', positive=True))), Rational(1, 2)), Add(Integer(1), Mul(Integer(-1), Symbol('b', positive=True))))), Rational(1, 3)), Pow(Add(Pow(Add(Integer(1), Symbol('b', positive=True)), Integer(2)), Mul(Integer(-1), Pow(Add(Integer(1), Pow(Symbol('b', positive=True), Integer(2)), Mul(Integer(6), Symbol('b', positive=True))), Rational(1, 2)), Add(Integer(1), Mul(Integer(-1), Symbol('b', positive=True))))), Rational(1, 3))), Rational(1, 2)))))))

def _e155():
    with evaluate(False):
        return Mul(Pow(Add(Integer(1), Mul(Integer(-1), Symbol('b', positive=True))), Integer(-1)), Add(Mul(Rational(1, 2), Pow(Add(Mul(Integer(-1), Pow(Integer(2), Rational(1, 3)), Pow(Symbol('b', positive=True), Rational(2, 3)), Add(Pow(Add(Pow(Add(Integer(1), Symbol('b', positive=True)), Integer(2)), Mul(Pow(Add(Integer(1), Pow(Symbol('b', positive=True), Integer(2)), Mul(Integer(6), Symbol('b', positive=True))), Rational(1, 2)), Add(Integer(1), Mul(Integer(-1), Symbol('b', positive=True))))), Rational(1, 3)), Pow(Add(Pow(Add(Integer(1), Symbol('b', positive=True)), Integer(2)), Mul(Integer(-1), Pow(Add(Integer(1), Pow(Symbol('b', positive=True), Integer(2)), Mul(Integer(6), Symbol('b', positive=True))), Rational(1, 2)), Add(Integer(1), Mul(Integer(-1), Symbol('b', positive=True))))), Rational(1, 3)))), Mul(Integer(2), Pow(Integer(2), Rational(5, 6)), Pow(Symbol('b', positive=True), Rational(2, 3)), Pow(Add(Pow(Add(Pow(Add(Integer(1), Symbol('b', positive=True)), Integer(2)), Mul(Pow(Add(Integer(1), Pow(Symbol('b', positive=True), Integer(2)), Mul(Integer(6), Symbol('b', positive=True))), Rational(1, 2)), Add(Integer(1), Mul(Integer(-1), Symbol('b', positive=True))))), Rational(1, 3)), Pow(Add(Pow(Add(Integer(1), Symbol('b', positive=True)), Integer(2)), Mul(Integer(-1), Pow(Add(Integer(1), Pow(Symbol('b', positive=True), Integer(2)), Mul(Integer(6), Symbol('b', positive=True))), Rational(1, 2)), Add(Integer(1), Mul(Integer(-1), Symbol('b', positive=True))))), Rational(1, 3))), Rational(-1, 2)), Add(Integer(1), Symbol('b', positive=True)))), Rational(1, 2))), Mul(Integer(-1), Symbol('b', positive=True)), Mul(Rational(1, 2), Pow(Integer(2), Rational(1, 6)), Pow(Symbol('b', positive=True), Rational(1, 3)), Pow(Add(Pow(Add(Pow(Add(Integer(1), Symbol('b', positive=True)), Integer(2)), Mul(Pow(Add(Integer(1), Pow(Symbol('b', positive=True), Integer(2)), Mul(Integer(6), Symbol('b', positive=True))), Rational(1, 2)), Add(Integer(1), Mul(Integer(-1), Symbol('b', positive=True))))), Rational(1, 3)), Pow(Add(Pow(Add(Integer(1), Symbol('b', positive=True)), Integer(2)), Mul(Integer(-1), Pow(Add(Integer(1), Pow(Symbol('b', positive=True), Integer(2)), Mul(Integer(6), Symbol('b', positive=True))), Rational(1, 2)), Add(Integer(1), Mul(Integer(-1), Symbol('b', positive=True))))), Rational(1, 3))), Rational(1, 2)))))

def _e156():
    with evaluate(False):
        return Mul(Rational(2, 3), Symbol('Delta', positive=True), Pow(Add(Mul(Pow(Symbol('gamma', nonnegative=True), Integer(2)), Pow(Add(Integer(1), Mul(Integer(-1), Symbol('b', positive=True))), Integer(-1))), Mul(Symbol('b', positive=True), Pow(Add(Integer(1), Mul(Integer(-1), Symbol('b', positive=True))), Integer(-3)), Add(Integer(1), Symbol('b', positive=True))), Mul(Integer(2), Symbol('gamma', nonnegative=True), Symbol('b', positive=True), Pow(Add(Integer(1), Mul(Integer(-1), Symbol('b', positive=True))), Integer(-2)))), Integer(-1)), Add(Mul(Pow(Symbol('gamma', nonnegative=True), Integer(3)), Pow(Add(Integer(1), Mul(Integer(-1), Symbol('b', positive=True))), Integer(-1))), Mul(Symbol('b', positive=True), Pow(Add(Integer(1), Mul(Integer(-1), Symbol('b', positive=True))), Integer(-4)), Add(Integer(1), Pow(Symbol('b', positive=True), Integer(2)), Mul(Integer(4), Symbol('b', positive=True)))), Mul(Integer(3), Symbol('b', positive=True), Pow(Symbol('gamma', nonnegative=True), Integer(2)), Pow(Add(Integer(1), Mul(Integer(-1), Symbol('b', positive=True))), Integer(-2))), Mul(Integer(3), Symbol('gamma', nonnegative=True), Symbol('b', positive=True), Pow(Add(Integer(1), Mul(Integer(-1), Symbol('b', positive=True))), Integer(-3)), Add(Integer(1), Symbol('b', positive=True)))))

def _e157():
    with evaluate(False):
        return Mul(Rational(1, 2), Pow(Symbol('Delta', positive=True), Integer(2)), Pow(Add(Mul(Pow(Symbol('gamma', nonnegative=True), Integer(2)), Pow(Add(Integer(1), Mul(Integer(-1), Symbol('b', positive=True))), Integer(-1))), Mul(Symbol('b', positive=True), Pow(Add(Integer(1), Mul(Integer(-1), Symbol('b', positive=True))), Integer(-3)), Add(Integer(1), Symbol('b', positive=True))), Mul(Integer(2), Symbol('gamma', nonnegative=True), Symbol('b', positive=True), Pow(Add(Integer(1), Mul(Integer(-1), Symbol('b', positive=True))), Integer(-2)))), Integer(-1)), Add(Mul(Pow(Symbol('gamma', nonnegative=True), Integer(4)), Pow(Add(Integer(1), Mul(Integer(-1), Symbol('b', positive=True))), Integer(-1))), Mul(Symbol('b', positive=True), Pow(Add(Integer(1), Mul(Integer(-1), Symbol('b', positive=True))), Integer(-5)), Add(Integer(1), Pow(Symbol('b', positive=True), Integer(3)), Mul(Integer(11), Symbol('b', positive=True)), Mul(Integer(11), Pow(Symbol('b', positive=True), Integer(2))))), Mul(Integer(4), Symbol('b', positive=True), Pow(Symbol('gamma', nonnegative=True), Integer(3)), Pow(Add(Integer(1), Mul(Integer(-1), Symbol('b', positive=True))), Integer(-2))), Mul(Integer(4), Symbol('gamma', nonnegative=True), Symbol('b', positive=True), Pow(Add(Integer(1), Mul(Integer(-1), Symbol('b', positive=True))), Integer(-4)), Add(Integer(1), Pow(Symbol('b', positive=True), Integer(2)), Mul(Integer(4), Symbol('b', positive=True)))), Mul(Integer(6), Symbol('b', positive=True), Pow(Symbol('gamma', nonnegative=True), Integer(2)), Pow(Add(Integer(1), Mul(Integer(-1), Symbol('b', positive=True))), Integer(-3)), Add(Integer(1), Symbol('b', positive=True)))))

def _e158():
    with evaluate(False):
        return None

def _e159():
    with evaluate(False):
        return None

def _e160():
    with evaluate(False):
        return None

def _e161():
    with evaluate(False):
        return None

def _e162():
    with evaluate(False):
        return Mul(Rational(2, 3), Symbol('Delta', positive=True), Pow(Add(Mul(Pow(Symbol('gamma', nonnegative=True), Integer(2)), Pow(Add(Integer(1), Mul(Integer(-1), Symbol('b', positive=True))), Integer(-1))), Mul(Symbol('b', positive=True), Pow(Add(Integer(1), Mul(Integer(-1), Symbol('b', positive=True))), Integer(-3)), Add(Integer(1), Symbol('b', positive=True))), Mul(Integer(2), Symbol('gamma', nonnegative=True), Symbol('b', positive=True), Pow(Add(Integer(1), Mul(Integer(-1), Symbol('b', positive=True))), Integer(-2)))), Integer(-2)), Add(Mul(Add(Mul(Pow(Symbol('gamma', nonnegative=True), Integer(2)), Pow(Add(Integer(1), Mul(Integer(-1), Symbol('b', positive=True))), Integer(-1))), Mul(Symbol('b', positive=True), Pow(Add(Integer(1), Mul(Integer(-1), Symbol('b', positive=True))), Integer(-3)), Add(Integer(1), Symbol('b', positive=True))), Mul(Integer(2), Symbol('gamma', nonnegative=True), Symbol('b', positive=True), Pow(Add(Integer(1), Mul(Integer(-1), Symbol('b', positive=True))), Integer(-2)))), Add(Mul(Integer(3), Pow(Symbol('gamma', nonnegative=True), Integer(2)), Pow(Add(Integer(1), Mul(Integer(-1), Symbol('b', positive=True))), Integer(-1))), Mul(Integer(3), Symbol('b', positive=True), Pow(Add(Integer(1), Mul(Integer(-1), Symbol('b', positive=True))), Integer(-3)), Add(Integer(1), Symbol('b', positive=True))), Mul(Integer(6), Symbol('gamma', nonnegative=True), Symbol('b', positive=True), Pow(Add(Integer(1), Mul(Integer(-1), Symbol('b', positive=True))), Integer(-2))))), Mul(Integer(-1), Add(Mul(Symbol('gamma', nonnegative=True), Pow(Add(Integer(1), Mul(Integer(-1), Symbol('b', positive=True))), Integer(-1))), Mul(Symbol('b', positive=True), Pow(Add(Integer(1), Mul(Integer(-1), Symbol('b', positive=True))), Integer(-2)))), Add(Mul(Integer(2), Pow(Symbol('gamma', nonnegative=True), Integer(3)), Pow(Add(Integer(1), Mul(Integer(-1), Symbol('b', positive=True))), Integer(-1))), Mul(Integer(2), Symbol('b', positive=True), Pow(Add(Integer(1), Mul(Integer(-1), Symbol('b', positive=True))), Integer(-4)), Add(Integer(1), Pow(Symbol('b', positive=True), Integer(2)), Mul(Integer(4), Symbol('b', positive=True)))), Mul(Integer(6), Symbol('b', positive=True), Pow(Symbol('gamma', nonnegative=True), Integer(2)), Pow(Add(Integer(1), Mul(Integer(-1), Symbol('b', positive=True))), Integer(-2))), Mul(Integer(6), Symbol('gamma', nonnegative=True), Symbol('b', positive=True), Pow(Add(Integer(1), Mul(Integer(-1), Symbol('b', positive=True))), Integer(-3)), Add(Integer(1), Symbol('b', positive=True)))))))

def _e163():
    with evaluate(False):
        return Mul(Rational(1, 3), Pow(Symbol('Delta', positive=True), Integer(2)), Pow(Add(Mul(Pow(Symbol('gamma', nonnegative=True), Integer(2)), Pow(Add(Integer(1), Mul(Integer(-1), Symbol('b', positive=True))), Integer(-1))), Mul(Symbol('b', positive=True), Pow(Add(Integer(1), Mul(Integer(-1), Symbol('b', positive=True))), Integer(-3)), Add(Integer(1), Symbol('b', positive=True))), Mul(Integer(2), Symbol('gamma', nonnegative=True), Symbol('b', positive=True), Pow(Add(Integer(1), Mul(Integer(-1), Symbol('b', positive=True))), Integer(-2)))), Integer(-2)), Add(Mul(Add(Mul(Pow(Symbol('gamma', nonnegative=True), Integer(2)), Pow(Add(Integer(1), Mul(Integer(-1), Symbol('b', positive=True))), Integer(-1))), Mul(Symbol('b', positive=True), Pow(Add(Integer(1), Mul(Integer(-1), Symbol('b', positive=True))), Integer(-3)), Add(Integer(1), Symbol('b', positive=True))), Mul(Integer(2), Symbol('gamma', nonnegative=True), Symbol('b', positive=True), Pow(Add(Integer(1), Mul(Integer(-1), Symbol('b', positive=True))), Integer(-2)))), Add(Mul(Integer(4), Pow(Symbol('gamma', nonnegative=True), Integer(3)), Pow(Add(Integer(1), Mul(Integer(-1), Symbol('b', positive=True))), Integer(-1))), Mul(Integer(4), Symbol('b', positive=True), Pow(Add(Integer(1), Mul(Integer(-1), Symbol('b', positive=True))), Integer(-4)), Add(Integer(1), Pow(Symbol('b', positive=True), Integer(2)), Mul(Integer(4), Symbol('b', positive=True)))), Mul(Integer(12), Symbol('b', positive=True), Pow(Symbol('gamma', nonnegative=True), Integer(2)), Pow(Add(Integer(1), Mul(Integer(-1), Symbol('b', positive=True))), Integer(-2))), Mul(Integer(12), Symbol('gamma', nonnegative=True), Symbol('b', positive=True), Pow(Add(Integer(1), Mul(Integer(-1), Symbol('b', positive=True))), Integer(-3)), Add(Integer(1), Symbol('b', positive=True))))), Mul(Integer(-1), Add(Mul(Symbol('gamma', nonnegative=True), Pow(Add(Integer(1), Mul(Integer(-1), Symbol('b', positive=True))), Integer(-1))), Mul(Symbol('b', positive=True), Pow(Add(Integer(1), Mul(Integer(-1), Symbol('b', positive=True))), Integer(-2)))), Add(Mul(Integer(2), Pow(Symbol('gamma', nonnegative=True), Integer(4)), Pow(Add(Integer(1), Mul(Integer(-1), Symbol('b', positive=True))), Integer(-1))), Mul(Integer(2), Symbol('b', positive=True), Pow(Add(Integer(1), Mul(Integer(-1), Symbol('b', positive=True))), Integer(-5)), Add(Integer(1), Pow(Symbol('b', positive=True), Integer(3)), Mul(Integer(11), Symbol('b', positive=True)), Mul(Integer(11), Pow(Symbol('b', positive=True), Integer(2))))), Mul(Integer(8), Symbol('b', positive=True), Pow(Symbol('gamma', nonnegative=True), Integer(3)), Pow(Add(Integer(1), Mul(Integer(-1), Symbol('b', positive=True))), Integer(-2))), Mul(Integer(8), Symbol('gamma', nonnegative=True), Symbol('b', positive=True), Pow(Add(Integer(1), Mul(Integer(-1), Symbol('b', positive=True))), Integer(-4)), Add(Integer(1), Pow(Symbol('b', positive=True), Integer(2)), Mul(Integer(4), Symbol('b', positive=True)))), Mul(Integer(12), Symbol('b', positive=True), Pow(Symbol('gamma', nonnegative=True), Integer(2)), Pow(Add(Integer(1), Mul(Integer(-1), Symbol('b', positive=True))), Integer(-3)), Add(Integer(1), Symbol('b', positive=True)))))))

def _e164():
    with evaluate(False):
        return {Symbol('A', positive=True): Mul(Symbol('Delta', positive=True), Pow(Symbol('eps', positive=True), Integer(-1)), log(Mul(Rational(1, 2), Pow(Symbol('delta', positive=True), Integer(-1)), Add(Integer(-1), Mul(Integer(2), Symbol('delta', positive=True)), exp(Symbol('eps', positive=True)))))), Symbol('a_norm', positive=True): Mul(Rational(1, 2), Symbol('eps', positive=True), Pow(Symbol('Delta', positive=True), Integer(-1)), Pow(Add(Integer(-1), exp(Symbol('eps', positive=True))), Integer(-1)), Add(Integer(-1), Mul(Integer(2), Symbol('delta', positive=True)), exp(Symbol('eps', positive=True))))}

def _e165():
    with evaluate(False):
        return Mul(Symbol('Delta', positive=True), Pow(Symbol('eps', positive=True), Integer(-1)), log(Mul(Rational(1, 2), Pow(Symbol('delta', positive=True), Integer(-1)), Add(Integer(-1), Mul(Integer(2), Symbol('delta', positive=True)), exp(Symbol('eps', positive=True))))))

def _e166():
    with evaluate(False):
        return Mul(Symbol('Delta', positive=True), Pow(Symbol('eps', positive=True), Integer(-1)), log(Mul(Rational(1, 2), Pow(Symbol('delta', positive=True), Integer(-1)), Add(Integer(-1), Mul(Integer(2), Symbol('delta', positive=True)), exp(Symbol('eps', positive=True))))))

def _e167():
    with evaluate(False):
        return Mul(Rational(1, 2), Symbol('eps', positive=True), Pow(Symbol('Delta', positive=True), Integer(-1)), Pow(Add(Integer(-1), exp(Symbol('eps', positive=True))), Integer(-1)), Add(Integer(-1), Mul(Integer(2), Symbol('delta', positive=True)), exp(Symbol('eps', positive=True))))

def _e168():
    with evaluate(False):
        return Mul(Rational(1, 2), Symbol('eps', positive=True), Pow(Symbol('Delta', positive=True), Integer(-1)), Pow(Add(Integer(-1), exp(Symbol('eps', positive=True))), Integer(-1)), Add(Integer(-1), Mul(Integer(2), Symbol('delta', positive=True)), exp(Symbol('eps', positive=True))))

def _e169():
    with evaluate(False):
        return Mul(Integer(-1), Symbol('Delta', positive=True), Pow(Symbol('eps', positive=True), Integer(-1)), Pow(Add(Integer(-1), exp(Symbol('eps', positive=True))), Integer(-1)), Add(Integer(1), Mul(Integer(-1), exp(Symbol('eps', positive=True))), Mul(Integer(2), Symbol('delta', positive=True), log(Mul(Rational(1, 2), Pow(Symbol('delta', positive=True), Integer(-1)), Add(Integer(-1), Mul(Integer(2), Symbol('delta', positive=True)), exp(Symbol('eps', positive=True))))))))

def _e170():
    with evaluate(False):
        return Mul(Integer(-2), Pow(Symbol('Delta', positive=True), Integer(2)), Pow(Symbol('eps', positive=True), Integer(-2)), Pow(Add(Integer(-1), exp(Symbol('eps', positive=True))), Integer(-1)), Add(Integer(1), Mul(Integer(-1), exp(Symbol('eps', positive=True))), Mul(Symbol('delta', positive=True), Pow(log(Mul(Rational(1, 2), Pow(Symbol('delta', positive=True), Integer(-1)), Add(Integer(-1), Mul(Integer(2), Symbol('delta', positive=True)), exp(Symbol('eps', positive=True))))), Integer(2))), Mul(Integer(2), Symbol('delta', positive=True), log(Mul(Rational(1, 2), Pow(Symbol('delta', positive=True), Integer(-1)), Add(Integer(-1), Mul(Integer(2), Symbol('delta', positive=True)), exp(Symbol('eps', positive=True))))))))

def _e171():
    with evaluate(False):
        return Mul(Symbol('Delta', positive=True), Pow(Symbol('eps', positive=True), Integer(-1)), log(Mul(Rational(1, 2), Pow(Symbol('delta', positive=True), Integer(-1)), Add(Integer(-1), Mul(Integer(2), Symbol('delta', positive=True)), exp(Symbol('eps', positive=True))))))

def _e172():
    with evaluate(False):
        return Mul(Symbol('Delta', positive=True), Pow(Symbol('eps', positive=True), Integer(-1)), log(Mul(Rational(1, 2), Pow(Symbol('delta', positive=True), Integer(-1)), Add(Integer(-1), Mul(Integer(2), Symbol('delta', positive=True)), exp(Symbol('eps', positive=True))))))

def _e173():
    with evaluate(False):
        return Mul(Rational(1, 2), Symbol('eps', positive=True), Pow(Symbol('Delta', positive=True), Integer(-1)), Pow(Add(Integer(-1), exp(Symbol('eps', positive=True))), Integer(-1)), Add(Integer(-1), Mul(Integer(2), Symbol('delta', positive=True)), exp(Symbol('eps', positive=True))))

def _e174():
    with evaluate(False):
        return Mul(Rational(1, 2), Symbol('eps', positive=True), Pow(Symbol('Delta', positive=True), Integer(-1)), Pow(Add(Integer(-1), exp(Symbol('eps', positive=True))), Integer(-1)), Add(Integer(-1), Mul(Integer(2), Symbol('delta', positive=True)), exp(Symbol('eps', positive=True))))

def _e175():
    with evaluate(False):
        return Mul(Integer(-1), Symbol('Delta', positive=True), Pow(Symbol('eps', positive=True), Integer(-1)), Pow(Add(Integer(-1), exp(Symbol('eps', positive=True))), Integer(-1)), Add(Integer(1), Mul(Integer(-1), exp(Symbol('eps', positive=True))), Mul(Integer(2), Symbol('delta', positive=True), log(Mul(Rational(1, 2), Pow(Symbol('delta', positive=True), Integer(-1)), Add(Integer(-1), Mul(Integer(2), Symbol('delta', positive=True)), exp(Symbol('eps', positive=True))))))))

def _e176():
    with evaluate(False):
        return Mul(Integer(-2), Pow(Symbol('Delta', positive=True), Integer(2)), Pow(Symbol('eps', positive=True), Integer(-2)), Pow(Add(Integer(-1), exp(Symbol('eps', positive=True))), Integer(-1)), Add(Integer(1), Mul(Integer(-1), exp(Symbol('eps', positive=True))), Mul(Symbol('delta', positive=True), Pow(log(Mul(Rational(1, 2), Pow(Symbol('delta', positive=True), Integer(-1)), Add(Integer(-1), Mul(Integer(2), Symbol('delta', positive=True)), exp(Symbol('eps', positive=True))))), Integer(2))), Mul(Integer(2), Symbol('delta', positive=True), log(Mul(Rational(1, 2), Pow(Symbol('delta', positive=True), Integer(-1)), Add(Integer(-1), Mul(Integer(2), Symbol('delta', positive=True)), exp(Symbol('eps', positive=True))))))))

def _e177():
    with evaluate(False):
        return Mul(Integer(-1), Symbol('Delta', positive=True), Pow(Symbol('eps', positive=True), Integer(-1)), Pow(Add(Integer(-1), exp(Symbol('eps', positive=True))), Integer(-1)), Add(Integer(1), Mul(Integer(-1), exp(Symbol('eps', positive=True))), Mul(Integer(2), Symbol('delta', positive=True), log(Mul(Rational(1, 2), Pow(Symbol('delta', positive=True), Integer(-1)), Add(Integer(-1), Mul(Integer(2), Symbol('delta', positive=True)), exp(Symbol('eps', positive=True))))))))

def _e178():
    with evaluate(False):
        return Mul(Integer(-2), Pow(Symbol('Delta', positive=True), Integer(2)), Pow(Symbol('eps', positive=True), Integer(-2)), Pow(Add(Integer(-1), exp(Symbol('eps', positive=True))), Integer(-1)), Add(Integer(1), Mul(Integer(-1), exp(Symbol('eps', positive=True))), Mul(Symbol('delta', positive=True), Pow(log(Mul(Rational(1, 2), Pow(Symbol('delta', positive=True), Integer(-1)), Add(Integer(-1), Mul(Integer(2), Symbol('delta', positive=True)), exp(Symbol('eps', positive=True))))), Integer(2))), Mul(Integer(2), Symbol('delta', positive=True), log(Mul(Rational(1, 2), Pow(Symbol('delta', positive=True), Integer(-1)), Add(Integer(-1), Mul(Integer(2), Symbol('delta', positive=True)), exp(Symbol('eps', positive=True))))))))

def _e179():
    with evaluate(False):
        return Mul(Integer(-1), Symbol('Delta', positive=True), Pow(Symbol('eps', positive=True), Integer(-1)), Pow(Add(Integer(-1), exp(Symbol('eps', positive=True))), Integer(-1)), Add(Integer(1), Mul(Integer(-1), exp(Symbol('eps', positive=True))), Mul(Integer(2), Symbol('delta', positive=True), log(Mul(Rational(1, 2), Pow(Symbol('delta', positive=True), Integer(-1)), Add(Integer(-1), Mul(Integer(2), Symbol('delta', positive=True)), exp(Symbol('eps', positive=True))))))))

def _e180():
    with evaluate(False):
        return Mul(Integer(-2), Pow(Symbol('Delta', positive=True), Integer(2)), Pow(Symbol('eps', positive=True), Integer(-2)), Pow(Add(Integer(-1), exp(Symbol('eps', positive=True))), Integer(-1)), Add(Integer(1), Mul(Integer(-1), exp(Symbol('eps', positive=True))), Mul(Symbol('delta', positive=True), Pow(log(Mul(Rational(1, 2), Pow(Symbol('delta', positive=True), Integer(-1)), Add(Integer(-1), Mul(Integer(2), Symbol('delta', positive=True)), exp(Symbol('eps', positive=True))))), Integer(2))), Mul(Integer(2), Symbol('delta', positive=True), log(Mul(Rational(1, 2), Pow(Symbol('delta', positive=True), Integer(-1)), Add(Integer(-1), Mul(Integer(2), Symbol('delta', positive=True)), exp(Symbol('eps', positive=True))))))))

def _e181():
    with evaluate(False):
        return {Symbol('L', positive=True): Mul(Rational(1, 2), Symbol('Delta', positive=True), Pow(Add(Symbol('alpha', nonnegative=True), Mul(Integer(-1), Symbol('delta', positive=True))), Integer(-1)), Add(Integer(-1), Symbol('alpha', nonnegative=True))), Symbol('a_norm', positive=True): Mul(Integer(-1), Pow(Symbol('Delta', positive=True), Integer(-1)), Add(Symbol('alpha', nonnegative=True), Mul(Integer(-1), Symbol('delta', positive=True))))}

def _e182():
    with evaluate(False):
        return Mul(Rational(1, 2), Symbol('Delta', positive=True), Pow(Add(Mul(Integer(-1), Symbol('delta', positive=True)), Piecewise(ExprCondPair(Integer(0), LessThan(Symbol('delta', positive=True), Rational(1, 2))), ExprCondPair(Add(Integer(-1), Mul(Integer(2), Symbol('delta', positive=True))), true))), Integer(-1)), Add(Integer(-1), Piecewise(ExprCondPair(Integer(0), LessThan(Symbol('delta', positive=True), Rational(1, 2))), ExprCondPair(Add(Integer(-1), Mul(Integer(2), Symbol('delta', positive=True))), true))))

def _e183():
    with evaluate(False):
        return Mul(Rational(1, 2), Symbol('Delta', positive=True), Pow(Add(Mul(Integer(-1), Symbol('delta', positive=True)), Piecewise(ExprCondPair(Integer(0), LessThan(Symbol('delta', positive=True), Rational(2, 3))), ExprCondPair(Add(Integer(-2), Mul(Integer(3), Symbol('delta', positive=True))), true))), Integer(-1)), Add(Integer(-1), Piecewise(ExprCondPair(Integer(0), LessThan(Symbol('delta', positive=True), Rational(2, 3))), ExprCondPair(Add(Integer(-2), Mul(Integer(3), Symbol('delta', positive=True))), true))))

def _e184():
    with evaluate(False):
        return Piecewise(ExprCondPair(Integer(0), LessThan(Symbol('delta', positive=True), Rational(1, 2))), ExprCondPair(Add(Integer(-1), Mul(Integer(2), Symbol('delta', positive=True))), true))

def _e185():
    with evaluate(False):
        return Piecewise(ExprCondPair(Integer(0), LessThan(Symbol('delta', positive=True), Rational(2, 3))), ExprCondPair(Add(Integer(-2), Mul(Integer(3), Symbol('delta', positive=True))), true))

def _e186():
    with evaluate(False):
        return Piecewise(ExprCondPair(Mul(Rational(1, 4), Symbol('Delta', positive=True), Pow(Symbol('delta', positive=True), Integer(-1))), LessThan(Symbol('delta', positive=True), Rational(1, 2))), ExprCondPair(Mul(Integer(-1), Symbol('Delta', positive=True), Add(Integer(-1), Symbol('delta', positive=True))), true))

def _e187():
    with evaluate(False):
        return Piecewise(ExprCondPair(Mul(Rational(1, 12), Pow(Symbol('Delta', positive=True), Integer(2)), Pow(Symbol('delta', positive=True), Integer(-2))), LessThan(Symbol('delta', positive=True), Rational(2, 3))), ExprCondPair(Mul(Rational(-9, 16), Pow(Symbol('Delta', positive=True), Integer(2)), Add(Integer(-1), Symbol('delta', positive=True))), true))

def _e188():
    with evaluate(False):
        return Mul(Integer(-1), Pow(Symbol('Delta', positive=True), Integer(-1)), Add(Mul(Integer(-1), Symbol('delta', positive=True)), Piecewise(ExprCondPair(Integer(0), LessThan(Symbol('delta', positive=True), Rational(1, 2))), ExprCondPair(Add(Integer(-1), Mul(Integer(2), Symbol('delta', positive=True))), true))))

def _e189():
    with evaluate(False):
        return Mul(Integer(-1), Pow(Symbol('Delta', positive=True), Integer(-1)), Add(Mul(Integer(-1), Symbol('delta', positive=True)), Piecewise(ExprCondPair(Integer(0), LessThan(Symbol('delta', positive=True), Rational(2, 3))), ExprCondPair(Add(Integer(-2), Mul(Integer(3), Symbol('delta', positive=True))), true))))

def _e190():
    with evaluate(False):
        return Mul(Rational(1, 2), Symbol('Delta', positive=True), Pow(Add(Mul(Integer(-1), Symbol('delta', positive=True)), Piecewise(ExprCondPair(Integer(0), LessThan(Symbol('delta', positive=True), Rational(1, 2))), ExprCondPair(Add(Integer(-1), Mul(Integer(2), Symbol('delta', positive=True))), true))), Integer(-1)), Add(Integer(-1), Piecewise(ExprCondPair(Integer(0), LessThan(Symbol('delta', positive=True), Rational(1, 2))), ExprCondPair(Add(Integer(-1), Mul(Integer(2), Symbol('delta', positive=True))), true))))

def _e191():
    with evaluate(False):
        return Mul(Rational(1, 2), Symbol('Delta', positive=True), Pow(Add(Mul(Integer(-1), Symbol('delta', positive=True)), Piecewise(ExprCondPair(Integer(0), LessThan(Symbol('delta', positive=True), Rational(2, 3))), ExprCondPair(Add(Integer(-2), Mul(Integer(3), Symbol('delta', positive=True))), true))), Integer(-1)), Add(Integer(-1), Piecewise(ExprCondPair(Integer(0), LessThan(Symbol('delta', positive=True), Rational(2, 3))), ExprCondPair(Add(Integer(-2), Mul(Integer(3), Symbol('delta', positive=True))), true))))

def _e192():
    with evaluate(False):
        return Piecewise(ExprCondPair(Integer(0), LessThan(Symbol('delta', positive=True), Rational(1, 2))), ExprCondPair(Add(Integer(-1), Mul(Integer(2), Symbol('delta', positive=True))), true))

def _e193():
    with evaluate(False):
        return Piecewise(ExprCondPair(Integer(0), LessThan(Symbol('delta', positive=True), Rational(2, 3))), ExprCondPair(Add(Integer(-2), Mul(Integer(3), Symbol('delta', positive=True))), true))

def _e194():
    with evaluate(False):
        return Piecewise(ExprCondPair(Mul(Rational(1, 4), Symbol('Delta', positive=True), Pow(Symbol('delta', positive=True), Integer(-1))), LessThan(Symbol('delta', positive=True), Rational(1, 2))), ExprCondPair(Mul(Integer(-1), Symbol('Delta', positive=True), Add(Integer(-1), Symbol('delta', positive=True))), true))

def _e195():
    with evaluate(False):
        return Piecewise(ExprCondPair(Mul(Rational(1, 12), Pow(Symbol('Delta', positive=True), Integer(2)), Pow(Symbol('delta', positive=True), Integer(-2))), LessThan(Symbol('delta', positive=True), Rational(2, 3))), ExprCondPair(Mul(Rational(-9, 16), Pow(Symbol('Delta', positive=True), Integer(2)), Add(Integer(-1), Symbol('delta', positive=True))), true))

def _e196():
    with evaluate(False):
        return Mul(Integer(-1), Pow(Symbol('Delta', positive=True), Integer(-1)), Add(Mul(Integer(-1), Symbol('delta', positive=True)), Piecewise(ExprCondPair(Integer(0), LessThan(Symbol('delta', positive=True), Rational(1, 2))), ExprCondPair(Add(Integer(-1), Mul(Integer(2), Symbol('delta', positive=True))), true))))

def _e197():
    with evaluate(False):
        return Mul(Integer(-1), Pow(Symbol('Delta', positive=True), Integer(-1)), Add(Mul(Integer(-1), Symbol('delta', positive=True)), Piecewise(ExprCondPair(Integer(0), LessThan(Symbol('delta', positive=True), Rational(2, 3))), ExprCondPair(Add(Integer(-2), Mul(Integer(3), Symbol('delta', positive=True))), true))))

def _e198():
    with evaluate(False):
        return Mul(Rational(-1, 4), Symbol('Delta', positive=True), Pow(Add(Integer(-1), Symbol('alpha', nonnegative=True)), Integer(2)), Pow(Add(Symbol('alpha', nonnegative=True), Mul(Integer(-1), Symbol('delta', positive=True))), Integer(-1)))

def _e199():
    with evaluate(False):
        return Mul(Rational(-1, 12), Pow(Symbol('Delta', positive=True), Integer(2)), Pow(Add(Integer(-1), Symbol('alpha', nonnegative=True)), Integer(3)), Pow(Add(Symbol('alpha', nonnegative=True), Mul(Integer(-1), Symbol('delta', positive=True))), Integer(-2)))

def _e200():
    with evaluate(False):
        return Piecewise(ExprCondPair(Mul(Rational(1, 4), Symbol('Delta', positive=True), Pow(Symbol('delta', positive=True), Integer(-1))), LessThan(Symbol('delta', positive=True), Rational(1, 2))), ExprCondPair(Mul(Integer(-1), Symbol('Delta', positive=True), Add(Integer(-1), Symbol('delta', positive=True))), true))

def _e201():
    with evaluate(False):
        return Piecewise(ExprCondPair(Mul(Rational(1, 12), Pow(Symbol('Delta', positive=True), Integer(2)), Pow(Symbol('delta', positive=True), Integer(-2))), LessThan(Symbol('delta', positive=True), Rational(2, 3))), ExprCondPair(Mul(Rational(-9, 16), Pow(Symbol('Delta', positive=True), Integer(2)), Add(Integer(-1), Symbol('delta', positive=True))), true))

def _e202():
    with evaluate(False):
        return Piecewise(ExprCondPair(Integer(0), LessThan(Symbol('delta', positive=True), Rational(1, 2))), ExprCondPair(Add(Integer(-1), Mul(Integer(2), Symbol('delta', positive=True))), true))

def _e203():
    with evaluate(False):
        return Piecewise(ExprCondPair(Integer(0), LessThan(Symbol('delta', positive=True), Rational(2, 3))), ExprCondPair(Add(Integer(-2), Mul(Integer(3), Symbol('delta', positive=True))), true))

def _e204():
    with evaluate(False):
        return Mul(Rational(1, 4), Pow(Add(Symbol('alpha', nonnegative=True), Mul(Integer(-1), Symbol('delta', positive=True))), Integer(-2)), Add(Symbol('Delta', positive=True), Mul(Integer(-1), Symbol('Delta', positive=True), Pow(Symbol('alpha', nonnegative=True), Integer(2))), Mul(Integer(-2), Symbol('Delta', positive=True), Symbol('delta', positive=True)), Mul(Integer(2), Symbol('alpha', nonnegative=True), Symbol('Delta', positive=True), Symbol('delta', positive=True))))

def _e205():
    with evaluate(False):
        return Mul(Rational(1, 12), Pow(Add(Symbol('alpha', nonnegative=True), Mul(Integer(-1), Symbol('delta', positive=True))), Integer(-3)), Add(Mul(Integer(-2), Pow(Symbol('Delta', positive=True), Integer(2))), Mul(Integer(-1), Pow(Symbol('alpha', nonnegative=True), Integer(3)), Pow(Symbol('Delta', positive=True), Integer(2))), Mul(Integer(3), Symbol('alpha', nonnegative=True), Pow(Symbol('Delta', positive=True), Integer(2))), Mul(Integer(3), Symbol('delta', positive=True), Pow(Symbol('Delta', positive=True), Integer(2))), Mul(Integer(-6), Symbol('alpha', nonnegative=True), Symbol('delta', positive=True), Pow(Symbol('Delta', positive=True), Integer(2))), Mul(Integer(3), Symbol('delta', positive=True), Pow(Symbol('alpha', nonnegative=True), Integer(2)), Pow(Symbol('Delta', positive=True), Integer(2)))))

ENTRIES = {
    'dpsym.mechanisms.discrete_laplace.DiscreteLaplace.calibration()': _e0,
    'dpsym.mechanisms.discrete_laplace.DiscreteLaplace.closed_form(cost, amplitude)': _e1,
    'dpsym.mechanisms.discrete_laplace.DiscreteLaplace.closed_form(cost, power)': _e2,
    'dpsym.mechanisms.discrete_laplace.DiscreteLaplace.formula(cost, amplitude)': _e3,
    'dpsym.mechanisms.discrete_laplace.DiscreteLaplace.formula(cost, power)': _e4,
    'dpsym.mechanisms.discrete_laplace.DiscreteLaplace.moment(1)': _e5,
    'dpsym.mechanisms.discrete_laplace.DiscreteLaplace.moment(2)': _e6,
    'dpsym.mechanisms.discrete_laplace.DiscreteLaplace.optimal_cost(amplitude)': _e7,
    'dpsym.mechanisms.discrete_laplace.DiscreteLaplace.optimal_cost(power)': _e8,
    'dpsym.mechanisms.discrete_staircase.DiscreteStaircase.calibration()': _e9,
    'dpsym.mechanisms.discrete_staircase.DiscreteStaircase.closed_form(cost, amplitude)': _e10,
    'dpsym.mechanisms.discrete_staircase.DiscreteStaircase.closed_form(cost, power)': _e11,
    'dpsym.mechanisms.discrete_staircase.DiscreteStaircase.closed_form(r, amplitude)': _e12,
    'dpsym.mechanisms.discrete_staircase.DiscreteStaircase.closed_form(r, power)': _e13,
    'dpsym.mechanisms.discrete_staircase.DiscreteStaircase.moment(1)': _e14,
    'dpsym.mechanisms.discrete_staircase.DiscreteStaircase.moment(2)': _e15,
    'dpsym.mechanisms.discrete_staircase.DiscreteStaircase.optimal_cost(amplitude)': _e16,
    'dpsym.mechanisms.discrete_staircase.DiscreteStaircase.optimal_cost(power)': _e17,
    'dpsym.mechanisms.discrete_staircase.DiscreteStaircase.optimal_parameter(amplitude)': _e18,
    'dpsym.mechanisms.discrete_staircase.DiscreteStaircase.optimal_parameter(power)': _e19,
    'dpsym.mechanisms.discrete_staircase.DiscreteStaircase.slope_function(amplitude)': _e20,
    'dpsym.mechanisms.discrete_staircase.DiscreteStaircase.slope_function(power)': _e21,
    'dpsym.mechanisms.discrete_uniform.DiscreteUniform.calibration()': _e22,
    'dpsym.mechanisms.discrete_uniform.DiscreteUniform.closed_form(P0, amplitude)': _e23,
    'dpsym.mechanisms.discrete_uniform.DiscreteUniform.closed_form(P0, power)': _e24,
    'dpsym.mechanisms.discrete_uniform.DiscreteUniform.closed_form(cost, amplitude)': _e25,
    'dpsym.mechanisms.discrete_uniform.DiscreteUniform.closed_form(cost, power)': _e26,
    'dpsym.mechanisms.discrete_uniform.DiscreteUniform.closed_form(n, amplitude)': _e27,
    'dpsym.mechanisms.discrete_uniform.DiscreteUniform.closed_form(n, power)': _e28,
    'dpsym.mechanisms.discrete_uniform.DiscreteUniform.formula(P0, amplitude)': _e29,
    'dpsym.mechanisms.discrete_uniform.DiscreteUniform.formula(P0, power)': _e30,
    'dpsym.mechanisms.discrete_uniform.DiscreteUniform.formula(cost, amplitude)': _e31,
    'dpsym.mechanisms.discrete_uniform.DiscreteUniform.formula(cost, power)': _e32,
    'dpsym.mechanisms.discrete_uniform.DiscreteUniform.formula(n, amplitude)': _e33,
    'dpsym.mechanisms.discrete_uniform.DiscreteUniform.formula(n, power)': _e34,
    'dpsym.mechanisms.discrete_uniform.DiscreteUniform.moment(1)': _e35,
    'dpsym.mechanisms.discrete_uniform.DiscreteUniform.moment(2)': _e36,
    'dpsym.mechanisms.discrete_uniform.DiscreteUniform.optimal_cost(amplitude)': _e37,
    'dpsym.mechanisms.discrete_uniform.DiscreteUniform.optimal_cost(power)': _e38,
    'dpsym.mechanisms.gaussian.AnalyticGaussian.calibration()': _e39,
    'dpsym.mechanisms.gaussian.AnalyticGaussian.closed_form(cost, amplitude)': _e40,
    'dpsym.mechanisms.gaussian.AnalyticGaussian.closed_form(cost, power)': _e41,
    'dpsym.mechanisms.gaussian.AnalyticGaussian.closed_form(density0, amplitude)': _e42,
    'dpsym.mechanisms.gaussian.AnalyticGaussian.closed_form(density0, power)': _e43,
    'dpsym.mechanisms.gaussian.AnalyticGaussian.closed_form(sigma, amplitude)': _e44,
    'dpsym.mechanisms.gaussian.AnalyticGaussian.closed_form(sigma, power)': _e45,
    'dpsym.mechanisms.gaussian.AnalyticGaussian.formula(cost, amplitude)': _e46,
    'dpsym.mechanisms.gaussian.AnalyticGaussian.formula(cost, power)': _e47,
    'dpsym.mechanisms.gaussian.AnalyticGaussian.formula(density0, amplitude)': _e48,
    'dpsym.mechanisms.gaussian.AnalyticGaussian.formula(density0, power)': _e49,
    'dpsym.mechanisms.gaussian.AnalyticGaussian.moment(1)': _e50,
    'dpsym.mechanisms.gaussian.AnalyticGaussian.moment(2)': _e51,
    'dpsym.mechanisms.gaussian.AnalyticGaussian.optimal_cost(amplitude)': _e52,
    'dpsym.mechanisms.gaussian.AnalyticGaussian.optimal_cost(power)': _e53,
    'dpsym.mechanisms.gaussian.ClassicGaussian.calibration()': _e54,
    'dpsym.mechanisms.gaussian.ClassicGaussian.closed_form(cost, amplitude)': _e55,
    'dpsym.mechanisms.gaussian.ClassicGaussian.closed_form(cost, power)': _e56,
    'dpsym.mechanisms.gaussian.ClassicGaussian.closed_form(density0, amplitude)': _e57,
    'dpsym.mechanisms.gaussian.ClassicGaussian.closed_form(density0, power)': _e58,
    'dpsym.mechanisms.gaussian.ClassicGaussian.closed_form(sigma, amplitude)': _e59,
    'dpsym.mechanisms.gaussian.ClassicGaussian.closed_form(sigma, power)': _e60,
    'dpsym.mechanisms.gaussian.ClassicGaussian.formula(cost, amplitude)': _e61,
    'dpsym.mechanisms.gaussian.ClassicGaussian.formula(cost, power)': _e62,
    'dpsym.mechanisms.gaussian.ClassicGaussian.formula(density0, amplitude)': _e63,
    'dpsym.mechanisms.gaussian.ClassicGaussian.formula(density0, power)': _e64,
    'dpsym.mechanisms.gaussian.ClassicGaussian.formula(sigma, amplitude)': _e65,
    'dpsym.mechanisms.gaussian.ClassicGaussian.formula(sigma, power)': _e66,
    'dpsym.mechanisms.gaussian.ClassicGaussian.moment(1)': _e67,
    'dpsym.mechanisms.gaussian.ClassicGaussian.moment(2)': _e68,
    'dpsym.mechanisms.gaussian.ClassicGaussian.optimal_cost(amplitude)': _e69,
    'dpsym.mechanisms.gaussian.ClassicGaussian.optimal_cost(power)': _e70,
    'dpsym.mechanisms.independent_staircase.IndependentStaircase.calibration()': _e71,
    'dpsym.mechanisms.independent_staircase.IndependentStaircase.closed_form(cost, amplitude)': _e72,
    'dpsym.mechanisms.independent_staircase.IndependentStaircase.closed_form(cost, power)': _e73,
    'dpsym.mechanisms.independent_staircase.IndependentStaircase.closed_form(gamma, amplitude)': _e74,
    'dpsym.mechanisms.independent_staircase.IndependentStaircase.closed_form(gamma, power)': _e75,
    'dpsym.mechanisms.independent_staircase.IndependentStaircase.formula(cost, amplitude)': _e76,
    'dpsym.mechanisms.independent_staircase.IndependentStaircase.formula(cost, power)': _e77,
    'dpsym.mechanisms.independent_staircase.IndependentStaircase.formula(gamma, amplitude)': _e78,
    'dpsym.mechanisms.independent_staircase.IndependentStaircase.formula(gamma, power)': _e79,
    'dpsym.mechanisms.independent_staircase.IndependentStaircase.moment(1)': _e80,
    'dpsym.mechanisms.independent_staircase.IndependentStaircase.moment(2)': _e81,
    'dpsym.mechanisms.independent_staircase.IndependentStaircase.optimal_cost(amplitude)': _e82,
    'dpsym.mechanisms.independent_staircase.IndependentStaircase.optimal_cost(power)': _e83,
    'dpsym.mechanisms.independent_staircase.IndependentStaircase.optimal_parameter(amplitude)': _e84,
    'dpsym.mechanisms.independent_staircase.IndependentStaircase.optimal_parameter(power)': _e85,
    'dpsym.mechanisms.independent_staircase.IndependentStaircase.slope_function(amplitude)': _e86,
    'dpsym.mechanisms.independent_staircase.IndependentStaircase.slope_function(power)': _e87,
    'dpsym.mechanisms.laplace.Laplace.calibration()': _e88,
    'dpsym.mechanisms.laplace.Laplace.closed_form(cost, amplitude)': _e89,
    'dpsym.mechanisms.laplace.Laplace.closed_form(cost, power)': _e90,
    'dpsym.mechanisms.laplace.Laplace.formula(cost, amplitude)': _e91,
    'dpsym.mechanisms.laplace.Laplace.formula(cost, power)': _e92,
    'dpsym.mechanisms.laplace.Laplace.moment(1)': _e93,
    'dpsym.mechanisms.laplace.Laplace.moment(2)': _e94,
    'dpsym.mechanisms.laplace.Laplace.optimal_cost(amplitude)': _e95,
    'dpsym.mechanisms.laplace.Laplace.optimal_cost(power)': _e96,
    'dpsym.mechanisms.laplace_md.LaplaceMD.calibration()': _e97,
    'dpsym.mechanisms.laplace_md.LaplaceMD.closed_form(cost, amplitude)': _e98,
    'dpsym.mechanisms.laplace_md.LaplaceMD.closed_form(cost, power)': _e99,
    'dpsym.mechanisms.laplace_md.LaplaceMD.formula(cost, amplitude)': _e100,
    'dpsym.mechanisms.laplace_md.LaplaceMD.formula(cost, power)': _e101,
    'dpsym.mechanisms.laplace_md.LaplaceMD.moment(1)': _e102,
    'dpsym.mechanisms.laplace_md.LaplaceMD.moment(2)': _e103,
    'dpsym.mechanisms.laplace_md.LaplaceMD.optimal_cost(amplitude)': _e104,
    'dpsym.mechanisms.laplace_md.LaplaceMD.optimal_cost(power)': _e105,
    'dpsym.mechanisms.lattice_md.DiscreteLaplaceMD.calibration()': _e106,
    'dpsym.mechanisms.lattice_md.DiscreteLaplaceMD.closed_form(cost, amplitude)': _e107,
    'dpsym.mechanisms.lattice_md.DiscreteLaplaceMD.closed_form(cost, power)': _e108,
    'dpsym.mechanisms.lattice_md.DiscreteLaplaceMD.formula(cost, amplitude)': _e109,
    'dpsym.mechanisms.lattice_md.DiscreteLaplaceMD.formula(cost, power)': _e110,
    'dpsym.mechanisms.lattice_md.DiscreteLaplaceMD.moment(1)': _e111,
    'dpsym.mechanisms.lattice_md.DiscreteLaplaceMD.moment(2)': _e112,
    'dpsym.mechanisms.lattice_md.DiscreteLaplaceMD.optimal_cost(amplitude)': _e113,
    'dpsym.mechanisms.lattice_md.DiscreteLaplaceMD.optimal_cost(power)': _e114,
    'dpsym.mechanisms.lattice_md.DiscreteUniformMD.calibration()': _e115,
    'dpsym.mechanisms.lattice_md.DiscreteUniformMD.closed_form(P0, amplitude)': _e116,
    'dpsym.mechanisms.lattice_md.DiscreteUniformMD.closed_form(P0, power)': _e117,
    'dpsym.mechanisms.lattice_md.DiscreteUniformMD.closed_form(cost, amplitude)': _e118,
    'dpsym.mechanisms.lattice_md.DiscreteUniformMD.closed_form(cost, power)': _e119,
    'dpsym.mechanisms.lattice_md.DiscreteUniformMD.closed_form(n, amplitude)': _e120,
    'dpsym.mechanisms.lattice_md.DiscreteUniformMD.closed_form(n, power)': _e121,
    'dpsym.mechanisms.lattice_md.DiscreteUniformMD.formula(P0, amplitude)': _e122,
    'dpsym.mechanisms.lattice_md.DiscreteUniformMD.formula(P0, power)': _e123,
    'dpsym.mechanisms.lattice_md.DiscreteUniformMD.formula(cost, amplitude)': _e124,
    'dpsym.mechanisms.lattice_md.DiscreteUniformMD.formula(cost, power)': _e125,
    'dpsym.mechanisms.lattice_md.DiscreteUniformMD.formula(n, amplitude)': _e126,
    'dpsym.mechanisms.lattice_md.DiscreteUniformMD.formula(n, power)': _e127,
    'dpsym.mechanisms.lattice_md.DiscreteUniformMD.moment(1)': _e128,
    'dpsym.mechanisms.lattice_md.DiscreteUniformMD.moment(2)': _e129,
    'dpsym.mechanisms.lattice_md.DiscreteUniformMD.optimal_cost(amplitude)': _e130,
    'dpsym.mechanisms.lattice_md.DiscreteUniformMD.optimal_cost(power)': _e131,
    'dpsym.mechanisms.staircase.Staircase.calibration()': _e132,
    'dpsym.mechanisms.staircase.Staircase.closed_form(cost, amplitude)': _e133,
    'dpsym.mechanisms.staircase.Staircase.closed_form(cost, power)': _e134,
    'dpsym.mechanisms.staircase.Staircase.closed_form(gamma, amplitude)': _e135,
    'dpsym.mechanisms.staircase.Staircase.closed_form(gamma, power)': _e136,
    'dpsym.mechanisms.staircase.Staircase.formula(cost, amplitude)': _e137,
    'dpsym.mechanisms.staircase.Staircase.formula(cost, power)': _e138,
    'dpsym.mechanisms.staircase.Staircase.formula(gamma, amplitude)': _e139,
    'dpsym.mechanisms.staircase.Staircase.formula(gamma, power)': _e140,
    'dpsym.mechanisms.staircase.Staircase.moment(1)': _e141,
    'dpsym.mechanisms.staircase.Staircase.moment(2)': _e142,
    'dpsym.mechanisms.staircase.Staircase.optimal_cost(amplitude)': _e143,
    'dpsym.mechanisms.staircase.Staircase.optimal_cost(power)': _e144,
    'dpsym.mechanisms.staircase.Staircase.optimal_parameter(amplitude)': _e145,
    'dpsym.mechanisms.staircase.Staircase.optimal_parameter(power)': _e146,
    'dpsym.mechanisms.staircase.Staircase.slope_function(amplitude)': _e147,
    'dpsym.mechanisms.staircase.Staircase.slope_function(power)': _e148,
    'dpsym.mechanisms.staircase_md.StaircaseMD.calibration()': _e149,
    'dpsym.mechanisms.staircase_md.StaircaseMD.closed_form(cost, amplitude)': _e150,
    'dpsym.mechanisms.staircase_md.StaircaseMD.closed_form(cost, power)': _e151,
    'dpsym.mechanisms.staircase_md.StaircaseMD.closed_form(gamma, amplitude)': _e152,
    'dpsym.mechanisms.staircase_md.StaircaseMD.closed_form(gamma, power)': _e153,
    'dpsym.mechanisms.staircase_md.StaircaseMD.formula(cost, amplitude)': _e154,
    'dpsym.mechanisms.staircase_md.StaircaseMD.formula(gamma, amplitude)': _e155,
    'dpsym.mechanisms.staircase_md.StaircaseMD.moment(1)': _e156,
    'dpsym.mechanisms.staircase_md.StaircaseMD.moment(2)': _e157,
    'dpsym.mechanisms.staircase_md.StaircaseMD.optimal_cost(amplitude)': _e158,
    'dpsym.mechanisms.staircase_md.StaircaseMD.optimal_cost(power)': _e159,
    'dpsym.mechanisms.staircase_md.StaircaseMD.optimal_parameter(amplitude)': _e160,
    'dpsym.mechanisms.staircase_md.StaircaseMD.optimal_parameter(power)': _e161,
    'dpsym.mechanisms.staircase_md.StaircaseMD.slope_function(amplitude)': _e162,
    'dpsym.mechanisms.staircase_md.StaircaseMD.slope_function(power)': _e163,
    'dpsym.mechanisms.truncated_laplace.TruncatedLaplace.calibration()': _e164,
    'dpsym.mechanisms.truncated_laplace.TruncatedLaplace.closed_form(A, amplitude)': _e165,
    'dpsym.mechanisms.truncated_laplace.TruncatedLaplace.closed_form(A, power)': _e166,
    'dpsym.mechanisms.truncated_laplace.TruncatedLaplace.closed_form(B, amplitude)': _e167,
    'dpsym.mechanisms.truncated_laplace.TruncatedLaplace.closed_form(B, power)': _e168,
    'dpsym.mechanisms.truncated_laplace.TruncatedLaplace.closed_form(cost, amplitude)': _e169,
    'dpsym.mechanisms.truncated_laplace.TruncatedLaplace.closed_form(cost, power)': _e170,
    'dpsym.mechanisms.truncated_laplace.TruncatedLaplace.formula(A, amplitude)': _e171,
    'dpsym.mechanisms.truncated_laplace.TruncatedLaplace.formula(A, power)': _e172,
    'dpsym.mechanisms.truncated_laplace.TruncatedLaplace.formula(B, amplitude)': _e173,
    'dpsym.mechanisms.truncated_laplace.TruncatedLaplace.formula(B, power)': _e174,
    'dpsym.mechanisms.truncated_laplace.TruncatedLaplace.formula(cost, amplitude)': _e175,
    'dpsym.mechanisms.truncated_laplace.TruncatedLaplace.formula(cost, power)': _e176,
    'dpsym.mechanisms.truncated_laplace.TruncatedLaplace.moment(1)': _e177,
    'dpsym.mechanisms.truncated_laplace.TruncatedLaplace.moment(2)': _e178,
    'dpsym.mechanisms.truncated_laplace.TruncatedLaplace.optimal_cost(amplitude)': _e179,
    'dpsym.mechanisms.truncated_laplace.TruncatedLaplace.optimal_cost(power)': _e180,
    'dpsym.mechanisms.uniform_mass.UniformMass.calibration()': _e181,
    'dpsym.mechanisms.uniform_mass.UniformMass.closed_form(L, amplitude)': _e182,
    'dpsym.mechanisms.uniform_mass.UniformMass.closed_form(L, power)': _e183,
    'dpsym.mechanisms.uniform_mass.UniformMass.closed_form(alpha, amplitude)': _e184,
    'dpsym.mechanisms.uniform_mass.UniformMass.closed_form(alpha, power)': _e185,
    'dpsym.mechanisms.uniform_mass.UniformMass.closed_form(cost, amplitude)': _e186,
    'dpsym.mechanisms.uniform_mass.UniformMass.closed_form(cost, power)': _e187,
    'dpsym.mechanisms.uniform_mass.UniformMass.closed_form(h, amplitude)': _e188,
    'dpsym.mechanisms.uniform_mass.UniformMass.closed_form(h, power)': _e189,
    'dpsym.mechanisms.uniform_mass.UniformMass.formula(L, amplitude)': _e190,
    'dpsym.mechanisms.uniform_mass.UniformMass.formula(L, power)': _e191,
    'dpsym.mechanisms.uniform_mass.UniformMass.formula(alpha, amplitude)': _e192,
    'dpsym.mechanisms.uniform_mass.UniformMass.formula(alpha, power)': _e193,
    'dpsym.mechanisms.uniform_mass.UniformMass.formula(cost, amplitude)': _e194,
    'dpsym.mechanisms.uniform_mass.UniformMass.formula(cost, power)': _e195,
    'dpsym.mechanisms.uniform_mass.UniformMass.formula(h, amplitude)': _e196,
    'dpsym.mechanisms.uniform_mass.UniformMass.formula(h, power)': _e197,
    'dpsym.mechanisms.uniform_mass.UniformMass.moment(1)': _e198,
    'dpsym.mechanisms.uniform_mass.UniformMass.moment(2)': _e199,
    'dpsym.mechanisms.uniform_mass.UniformMass.optimal_cost(amplitude)': _e200,
    'dpsym.mechanisms.uniform_mass.UniformMass.optimal_cost(power)': _e201,
    'dpsym.mechanisms.uniform_mass.UniformMass.optimal_parameter(amplitude)': _e202,
    'dpsym.mechanisms.uniform_mass.UniformMass.optimal_parameter(power)': _e203,
    'dpsym.mechanisms.uniform_mass.UniformMass.slope_function(amplitude)': _e204,
    'dpsym.mechanisms.uniform_mass.UniformMass.slope_function(power)': _e205,
}
