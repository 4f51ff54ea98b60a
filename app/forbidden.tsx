import Link from 'next/link';

export default function Forbidden() {
  return (
    <div className="mx-auto mt-16 max-w-md text-center">
      <h1 className="text-2xl font-semibold">403 · Not allowed</h1>
      <p className="mt-2 text-slate-600">Your role does not give access to this page.</p>
      <Link href="/" className="mt-4 inline-block text-blue-700 hover:underline">Back to the knowledge bases</Link>
    </div>
  );
}
